import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { acceptClaim } from '#shared/tickets/use-cases/accept-claim';
import { changeClaimant, commitOpenClaim, openClaim } from '#shared/tickets/use-cases/claims';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';

/**
 * Demo claims, one in each state, through the same use cases as the routes (so the open
 * ones' links are in the SES stand-in's store). Give it four tickets that are active, not
 * checked in and never sent as a claim (staff sales: the claimed one moves to `claimedBy`).
 */
const SYSTEM = { kind: 'system' } as const;

export interface DemoClaims {
  /** Sent, waiting: its link is in the mail to `captain.claimant@example.test`. */
  open: number;
  /** Sent, then sent to another claimant: the first link is void, the second mailed. */
  reassigned: number;
  /** Accepted by the `claimedBy` customer: the ticket is on their account. */
  claimed: number;
  /** Sent, then the ticket was cancelled: the claim shows `cancelled`. */
  cancelled: number;
}

export async function seedDemoClaims(
  ticketIds: readonly number[],
  claimedBy: { id: number; email: string },
): Promise<DemoClaims> {
  const [open, reassigned, claimed, cancelled] = ticketIds;
  if (open === undefined || reassigned === undefined || claimed === undefined || cancelled === undefined) {
    throw new Error('seedDemoClaims needs four tickets.');
  }
  await openClaim(open, { claimantEmail: 'captain.claimant@example.test', claimantUserId: 'crm-1001' }, SYSTEM);

  await openClaim(reassigned, { claimantEmail: 'first.claimant@example.test', claimantUserId: 'crm-1002' }, SYSTEM);
  await changeClaimant(reassigned, { claimantEmail: 'second.claimant@example.test' }, SYSTEM);

  // The seed accepts in the customer's place, so it takes the token from the transaction instead of the mail.
  const { token } = await commitOpenClaim(claimed, { claimantEmail: claimedBy.email, claimantUserId: '' }, SYSTEM);
  await acceptClaim(token, claimedBy.id);

  await openClaim(cancelled, { claimantEmail: 'late.claimant@example.test', claimantUserId: 'crm-1004' }, SYSTEM);
  await changeTicketStates(cancelled, { processState: PROCESS_STATE.cancelled }, SYSTEM);

  return { open, reassigned, claimed, cancelled };
}
