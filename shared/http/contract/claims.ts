import * as z from '../../schema.ts';
import type { ClaimInfo } from '../../domain/claim.ts';

/**
 * The claim bodies of the older `/ticket` routes. The spec names the user id field
 * `claimantuserId` (lower-case u); answers spell it `claimantUserId` like the ticket's
 * `ticketClaim` does.
 */
const claimantEmail = z
  .email('claimantEmail must be an email address')
  .check(z.maxLength(254, 'claimantEmail must be at most 254 characters'));
/** The claimant's id in the caller's own system; may be empty. */
const claimantuserId = z.string().check(z.maxLength(100, 'claimantuserId must be at most 100 characters'));

/** `POST /ticket/{ticketId}/claim` (spec): both fields required. */
export const ClaimBody = z.strictObject({ claimantEmail, claimantuserId });

/** `POST /ticket/{ticketId}/claimant` (ours: the spec shows no body): the new address, and optionally a new user id. */
export const ClaimantBody = z.strictObject({ claimantEmail, claimantuserId: z.optional(claimantuserId) });

/** `POST /my-account/claim` (ours): the token of the mailed link, as the portal read it from the link's fragment. */
export const AcceptClaimBody = z.strictObject({
  token: z
    .string()
    .check(z.minLength(1, 'token must not be empty'), z.maxLength(200, 'token must be at most 200 characters')),
});

/**
 * `GET /ticket/{ticketId}/claim-info` and the two claim writes answer this (in
 * `{count: 1, data}`), as a schema: the OpenAPI document and the tests use it.
 */
export const ClaimInfoResource = z
  .strictObject({
    ticketId: z.int(),
    isAClaim: z.boolean().check(z.describe('The ticket was sent as a claim (in any state).')),
    isClaimed: z.boolean().check(z.describe('The claimant accepted it.')),
    state: z
      .nullable(z.enum(['open', 'claimed', 'cancelled']))
      .check(
        z.describe(
          '`open` = sent, waiting; `claimed` = accepted; `cancelled` = the ticket stopped being eligible while the claim was open; null = never a claim.',
        ),
      ),
    claimantEmail: z.nullable(z.string()),
    claimantUserId: z.nullable(z.string()),
    sentAt: z
      .nullable(z.iso.datetime())
      .check(z.describe('When the current link was mailed (a claimant change sends a new one).')),
    claimedAt: z.nullable(z.iso.datetime()),
  })
  .check(z.describe("A ticket's claim; all null/false when the ticket was never sent as a claim."));

true satisfies z.Same<z.output<typeof ClaimInfoResource>, ClaimInfo>;
true satisfies z.Same<keyof z.output<typeof ClaimInfoResource>, keyof ClaimInfo>;
