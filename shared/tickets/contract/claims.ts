import * as z from '../../schema.ts';

/**
 * The claim bodies of the older `/ticket` routes. The spec names the user id field
 * `claimantuserId` (lower-case u); answers spell it `claimantUserId` like the ticket's
 * `ticketClaim` does.
 */
const claimantEmail = z.lazy(() =>
  z
    .email('claimantEmail must be an email address')
    .check(z.maxLength(254, 'claimantEmail must be at most 254 characters')),
);
/** The claimant's id in the caller's own system; may be empty. */
const claimantuserId = z.lazy(() =>
  z.string().check(z.maxLength(100, 'claimantuserId must be at most 100 characters')),
);

/** `POST /ticket/{ticketId}/claim` (spec): both fields required. */
export const ClaimBody = z.lazy(() => z.strictObject({ claimantEmail, claimantuserId }));

/** `POST /ticket/{ticketId}/claimant` (ours: the spec shows no body): the new address, and optionally a new user id. */
export const ClaimantBody = z.lazy(() => z.strictObject({ claimantEmail, claimantuserId: z.optional(claimantuserId) }));

/** `POST /my-account/claim` (ours): the token of the mailed link, as the portal read it from the link's fragment. */
export const AcceptClaimBody = z.lazy(() =>
  z.strictObject({
    token: z
      .string()
      .check(z.minLength(1, 'token must not be empty'), z.maxLength(200, 'token must be at most 200 characters')),
  }),
);

/** The claim-info answer: its schema lives with the domain type it defines. */
export { ClaimInfoResource } from '../domain/claim.ts';
