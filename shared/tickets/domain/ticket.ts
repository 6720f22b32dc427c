import { PROCESS_STATE } from './ticket-codes.ts';
import type { PurchaserContact, Ticket, TicketClaim, TicketCreation, TicketRefund } from './ticket-resource.ts';

export {
  AttendeeAnswerResource,
  PROCESS_STATE,
  PROCESS_STATES,
  SINGLE_TICKET_INCLUDES,
  TICKET_INCLUDES,
  TRANSFER_STATES,
  UPGRADE_STATES,
  WITHDRAWN_STATES,
  type AttendeeAnswer,
  type ProcessState,
  type TicketInclude,
  type TransferState,
  type UpgradeState,
  type WithdrawnState,
} from './ticket-codes.ts';
export type {
  CheckInInfo,
  PurchaserContact,
  Ticket,
  TicketClaim,
  TicketFields,
  TicketRefund,
} from './ticket-resource.ts';

/**
 * Tickets: the record, eligibility and what a ticket counts for in the check-in statistics (the resource
 * `GET /tickets/{id}` answers: ticket-resource.ts; the state codes: ticket-codes.ts, both re-exported here);
 * `ticket-view.ts` turns a record
 * into the resource. The rules of change live beside it: `ticket-states.ts` (which state
 * moves are allowed), `check-in.ts` (whether a scan admits), `transfer.ts`;
 * `shared/tickets/use-cases/` applies them and commits once.
 */

export interface Scan {
  eventId: number;
  /** ISO-8601 UTC. */
  scannedTimestamp: string;
  /** The administrator who scanned (from the JWT). */
  adminId: number;
  /** A gate upload's scan (`POST /scans`, README "The gate offline"): the scanner's device, the scan's client id and when it reached the server. */
  deviceId?: string;
  scanId?: string;
  uploadedAt?: string;
}

/**
 * Everything stored about a ticket: the resource plus what the rules need without a
 * second read (the events its type grants entry to, the scans, the claim, the purchaser).
 */
export interface TicketRecord extends Omit<Ticket, 'ticketClaim' | 'ticketRefund' | 'purchaser' | 'checkInInfo'> {
  /** Other events the ticket's type (an access package) grants entry to; copied from the type. */
  accessEvents: number[];
  /** The simple scan at the ticket's own event. */
  checkIn: Scan | null;
  /** Access-package scans by event id (a deleted scan is removed from the map). */
  accessScans: Record<string, Scan>;
  claim: TicketClaim | null;
  refund: TicketRefund;
  purchaserContact: PurchaserContact | null;
  /**
   * The ticket's part of its order's booking fee, a tax added to it included (absent: none): what a part's cancel
   * refunds beside its `price` and `taxAmount` (shared/README.md "Pricing").
   */
  bookingFee?: number;
  /**
   * The ticket's part of its line's discount, and the part of `bookingFee` that is the fee's tax (absent: none): with
   * `price`, `taxAmount` and `bookingFee`, what the ticket moves of its type's sales figures (shared/selling/data/stock.ts).
   */
  discount?: number;
  feeTax?: number;
  /**
   * The history's entry 1, kept on the record by its creation's write (ticket-history.ts). Absent, the record's entry 1
   * is an item of its own, read like every later entry (data/ticket-history.ts `firstStored`).
   */
  creation?: TicketCreation;
  /** Optimistic-lock counter: every write is conditional on it. */
  version: number;
}

// ---- Rules ----------------------------------------------------------------------------

type StateView = Pick<TicketRecord, 'processState' | 'transferState' | 'withdrawnState' | 'deleted'>;

/** Eligible (spec, check-in statistics): not cancelled, transferred or withdrawn, and not deleted. Eligible tickets hold a place (`sold`). */
export const isEligible = (ticket: StateView): boolean =>
  ticket.deleted === 0 &&
  ticket.processState !== PROCESS_STATE.cancelled &&
  ticket.transferState !== 'transferred' &&
  ticket.withdrawnState !== 'withdrawn';

/** The claim as answered: its resource fields, `open` shown as `cancelled` once the ticket is no longer eligible (see claim.ts). */
export function claimStatus(ticket: StateView & Pick<TicketRecord, 'claim'>): TicketClaim | null {
  const { claim } = ticket;
  if (!claim) return null;
  const state = claim.state === 'open' && !isEligible(ticket) ? 'cancelled' : claim.state;
  const { isAClaim, isClaimed, claimantEmail, claimantUserId, sentAt, claimedAt, claimedByCustomerId } = claim;
  return { isAClaim, isClaimed, state, claimantEmail, claimantUserId, sentAt, claimedAt, claimedByCustomerId };
}

/**
 * Whether a ticket holds its bib in its event: not deleted, cancelled or transferred (the
 * bib is then free for another ticket; a restore takes it back only if it still is).
 */
export const holdsBib = (ticket: StateView & Pick<TicketRecord, 'bibNumber'>): boolean =>
  !!ticket.bibNumber &&
  ticket.deleted === 0 &&
  ticket.processState !== PROCESS_STATE.cancelled &&
  ticket.transferState !== 'transferred';

/**
 * The sorted set of events an eligible ticket counts as checked in for: its own event
 * when its processState is checked-in, plus every event with a (non-deleted)
 * access-package scan. Its comma-joined form is the ticket's statistics "signature".
 */
export function countedEvents(ticket: StateView & Pick<TicketRecord, 'eventId' | 'accessScans'>): number[] {
  if (!isEligible(ticket)) return [];
  const events = new Set(Object.keys(ticket.accessScans).map(Number));
  if (ticket.processState === PROCESS_STATE.checkedIn) events.add(ticket.eventId);
  return [...events].sort((a, b) => a - b);
}

/** Events per statistics request: their shards (shared/lists/ticket-stats.ts) fit two BatchGetItems, sent together. */
export const MAX_STATS_EVENTS = 10;

export const signatureOf = (events: readonly number[]): string => events.join(',');
export const eventsOfSignature = (signature: string): number[] => (signature ? signature.split(',').map(Number) : []);

/**
 * `checkedInTickets` from signature counts: each signature once (a ticket counts once
 * even when it counts for several requested events), summed when it meets the request.
 */
export function checkedInFromSignatures(counts: ReadonlyMap<string, number>, requested: readonly number[]): number {
  const wanted = new Set(requested);
  let total = 0;
  for (const [signature, count] of counts) {
    if (eventsOfSignature(signature).some((event) => wanted.has(event))) total += count;
  }
  return total;
}
