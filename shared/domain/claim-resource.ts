import * as z from '../schema.ts';
import type { ClaimInfo } from './claim.ts';

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
