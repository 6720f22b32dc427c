import { createHash } from 'node:crypto';
import * as z from '../../schema.ts';
import { claimStatus, isEligible, PROCESS_STATE, type TicketClaim, type TicketRecord } from './ticket.ts';

/**
 * Claims: a ticket sent to someone else (the claimant) to claim, e.g. a team captain's
 * spare tickets. The claim lives on the ticket record and changes only with it; the link
 * mailed to the claimant carries a single-use token, of which the table keeps only the
 * SHA-256 (on its token item and on the claim, so a claimant change can void the old one).
 *
 * States: `open` (sent, waiting for the claimant), `claimed` (accepted: the ticket moved
 * to the claimant's customer account), `cancelled` (the ticket was cancelled,
 * transferred, withdrawn or deleted while the claim was open). Claims never move the
 * ticket's states, and the paths that do know nothing of claims, so `cancelled` is read
 * from the ticket (`claimStatus`) rather than written: a claim on a ticket restored
 * before anyone accepted it is open again, and its link works again until it expires.
 */

/** What the ticket record stores: the claim plus the hash of the one live token (null once spent). */
export interface StoredClaim extends TicketClaim {
  tokenHash: string | null;
}

/** A claim link stays valid 14 days (TTL of its token item, also checked on use). */
export const CLAIM_TOKEN_TTL_SECONDS = 14 * 24 * 3600;

export const hashClaimToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * `GET /ticket/{ticketId}/claim-info` and the two claim writes answer this (in
 * `{count: 1, data}`): all null/false when the ticket was never sent as a claim.
 */
export const ClaimInfoResource = z.lazy(() =>
  z
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
    .check(z.describe("A ticket's claim; all null/false when the ticket was never sent as a claim.")),
);
export type ClaimInfo = z.output<typeof ClaimInfoResource>;

export function claimInfo(ticket: TicketRecord): ClaimInfo {
  const claim = claimStatus(ticket);
  return {
    ticketId: ticket.id,
    isAClaim: claim?.isAClaim ?? false,
    isClaimed: claim?.isClaimed ?? false,
    state: claim?.state ?? null,
    claimantEmail: claim?.claimantEmail ?? null,
    claimantUserId: claim?.claimantUserId ?? null,
    sentAt: claim?.sentAt ?? null,
    claimedAt: claim?.claimedAt ?? null,
  };
}

export type ClaimRefusal =
  | 'deleted'
  | 'transferred'
  | 'withdrawn'
  | 'cancelled'
  | 'checked_in'
  | 'claim_open'
  | 'already_claimed'
  | 'no_open_claim';

const REFUSALS: Record<ClaimRefusal, string> = {
  deleted: 'The ticket is deleted.',
  transferred: 'The ticket was transferred; its replacement holds the place.',
  withdrawn: 'The ticket is withdrawn.',
  cancelled: 'The ticket is cancelled.',
  checked_in: 'The ticket is already checked in.',
  claim_open: 'The ticket already has an open claim; change its claimant instead.',
  already_claimed: 'The ticket was already claimed.',
  no_open_claim: 'The ticket has no open claim.',
};

export const refusalMessage = (reason: ClaimRefusal): string => REFUSALS[reason];

/** Why the ticket cannot be handed to a claimant now (its states), or undefined. */
function stateRefusal(ticket: TicketRecord): ClaimRefusal | undefined {
  if (ticket.deleted) return 'deleted';
  if (ticket.transferState === 'transferred') return 'transferred';
  if (ticket.withdrawnState === 'withdrawn') return 'withdrawn';
  if (ticket.processState === PROCESS_STATE.cancelled) return 'cancelled';
  if (ticket.processState === PROCESS_STATE.checkedIn) return 'checked_in';
  return undefined;
}

/** Why a new claim cannot be opened, or undefined. A cancelled claim may be replaced by a new one. */
export function openRefusal(ticket: TicketRecord): ClaimRefusal | undefined {
  const refusal = stateRefusal(ticket);
  if (refusal) return refusal;
  const state = claimStatus(ticket)?.state;
  if (state === 'open') return 'claim_open';
  if (state === 'claimed') return 'already_claimed';
  return undefined;
}

/** Why the claimant of the ticket's claim cannot change (only an open claim's can), or undefined. */
export function claimantRefusal(ticket: TicketRecord): ClaimRefusal | undefined {
  return claimStatus(ticket)?.state === 'open' && isEligible(ticket) ? stateRefusal(ticket) : 'no_open_claim';
}

/** Why a presented token cannot be accepted now, given the claim it names is the ticket's open one. */
export function acceptRefusal(ticket: TicketRecord): ClaimRefusal | undefined {
  return stateRefusal(ticket) ?? (claimStatus(ticket)?.state === 'open' ? undefined : 'no_open_claim');
}

export interface Claimant {
  claimantEmail: string;
  claimantUserId: string;
}

const stored = (ticket: TicketRecord): StoredClaim | null => ticket.claim as StoredClaim | null;

/** The live token's hash of the ticket's claim (null when none). */
export const liveTokenHash = (ticket: TicketRecord): string | null => stored(ticket)?.tokenHash ?? null;

/** The ticket with a new open claim for `claimant`. */
export function withOpenClaim(ticket: TicketRecord, claimant: Claimant, tokenHash: string, at: string): TicketRecord {
  const claim: StoredClaim = {
    isAClaim: true,
    isClaimed: false,
    state: 'open',
    ...claimant,
    sentAt: at,
    claimedAt: null,
    claimedByCustomerId: null,
    tokenHash,
  };
  return { ...ticket, claim, updated: at };
}

/** The ticket whose open claim now goes to another claimant (a new token; `sentAt` is the new mail's time). */
export function withClaimant(ticket: TicketRecord, claimant: Claimant, tokenHash: string, at: string): TicketRecord {
  return { ...ticket, claim: { ...stored(ticket)!, ...claimant, sentAt: at, tokenHash } as StoredClaim, updated: at };
}

/** The ticket claimed by customer `customerId`: the claim closed and the ticket on that customer's account. */
export function withClaimAccepted(ticket: TicketRecord, customerId: number, at: string): TicketRecord {
  const claim: StoredClaim = {
    ...stored(ticket)!,
    isClaimed: true,
    state: 'claimed',
    claimedAt: at,
    claimedByCustomerId: customerId,
    tokenHash: null,
  };
  return { ...ticket, claim, customerId, updated: at };
}
