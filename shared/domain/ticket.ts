import * as z from '../schema.ts';

/**
 * Tickets: the resource `GET /tickets/{id}` answers, the state codes, eligibility and
 * what a ticket counts for in the check-in statistics; `ticket-view.ts` turns a record
 * into the resource. The rules of change live beside it: `ticket-states.ts` (which state
 * moves are allowed), `check-in.ts` (whether a scan admits), `transfer.ts`;
 * `shared/use-cases/tickets/` applies them and commits once.
 */
/**
 * `processState` codes. The spec fixes only 4 = cancelled ("exclude_process_states=4
 * omits cancelled tickets") and says a checked-in state exists; the others are ours.
 */
export const PROCESS_STATE = {
  /** Reserved, not yet paid: holds a place, cannot be admitted. */
  pending: 0,
  /** Issued and valid; not yet admitted at its own event. */
  active: 1,
  /** Admitted at its own event (a simple scan). */
  checkedIn: 2,
  /** Cancelled (spec code). */
  cancelled: 4,
} as const;
export type ProcessState = (typeof PROCESS_STATE)[keyof typeof PROCESS_STATE];
export const PROCESS_STATES: readonly ProcessState[] = Object.values(PROCESS_STATE);

/** `transferState`: `transferred` once a transfer replaced the ticket by a new one. */
export const TRANSFER_STATES = ['none', 'transferred'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];
/** `upgradeState`: `upgraded` after an upgrade (a later issue); does not affect eligibility. */
export const UPGRADE_STATES = ['none', 'upgraded'] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];
/** `withdrawnState`: `withdrawn` when the attendee withdrew (e.g. from a race). */
export const WITHDRAWN_STATES = ['none', 'withdrawn'] as const;
export type WithdrawnState = (typeof WITHDRAWN_STATES)[number];

/** Attendee answer object (spec), as stored and answered (the request's bounds: contract/tickets.ts `AttendeeAnswer`). */
export const AttendeeAnswerResource = z.strictObject({
  questionId: z.int(),
  answerId: z.optional(z.int()),
  answerText: z.optional(z.string()),
  dynamicQuantity: z.optional(z.int()),
  displayText: z.optional(z.string()),
  sku: z.optional(z.string()),
});
export type AttendeeAnswer = z.output<typeof AttendeeAnswerResource>;

/** The purchaser's contact details (`_include=purchaser`). */
export interface PurchaserContact {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
}

/**
 * Change status (`_include=change_status`): the ticket's claim, if it was sent as one
 * (shared/domain/claim.ts). `state`: `open` (sent, waiting), `claimed` (accepted),
 * `cancelled` (the ticket stopped being eligible while the claim was open). Times ISO-8601 UTC.
 */
export interface TicketClaim {
  isAClaim: boolean;
  isClaimed: boolean;
  state: 'open' | 'claimed' | 'cancelled';
  claimantEmail: string | null;
  claimantUserId: string | null;
  sentAt: string | null;
  claimedAt: string | null;
  claimedByCustomerId: number | null;
}

/** Ticket status (`_include=ticket_status`): refund state. */
export interface TicketRefund {
  status: 'none' | 'requested' | 'refunded';
  amount: number;
}

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

export interface CheckInInfo {
  /** The time of the simple scan, null when the ticket was not admitted at its own event. */
  scannedTimestamp: string | null;
  /** At most one simple scan plus the access-package scans. */
  scans: { kind: 'simple' | 'access_package'; eventId: number; eventName: string; scannedTimestamp: string }[];
}

/** The writable attendee/sale fields (spec's update body, minus event/type and states). */
export interface TicketFields {
  teamId: number | null;
  barcode: string;
  bibNumber: string | null;
  chipNumber: string | null;
  externalMembershipId: string | null;
  price: number;
  taxAmount: number;
  gratuityAmount: number;
  paidUponCheckout: number;
  partyMember: string;
  partyMemberLastName: string;
  emailAddress: string | null;
  partyMemberBirthMonth: number | null;
  partyMemberBirthDay: number | null;
  partyMemberBirthYear: number | null;
  partyMemberTitle: string | null;
  partyMemberCompany: string | null;
  attendeeQuestions: AttendeeAnswer[];
}

/** The ticket as `GET /tickets/{id}` answers it (without `_include` expansions). */
export interface Ticket extends TicketFields {
  id: number;
  eventId: number;
  typeId: number;
  orderId: number | null;
  /** The customer whose order issued the ticket (the portal shows them only their own); null for staff sales. */
  customerId: number | null;
  /** The start wave of the ticket's event it runs in, when the event has waves. */
  waveTimeId: number | null;
  processState: ProcessState;
  transferState: TransferState;
  upgradeState: UpgradeState;
  withdrawnState: WithdrawnState;
  deleted: 0 | 1;
  profilePhoto: string | null;
  /** The ticket this one replaced by a transfer, and the one that replaced it. */
  transferredFrom: number | null;
  transferredTo: number | null;
  /** When the ticket was bought: its order's purchase time, else its creation; a transfer's replacement keeps it. */
  purchasedDate: string;
  created: string;
  updated: string;
  ticketClaim?: TicketClaim | null;
  ticketRefund?: TicketRefund;
  purchaser?: PurchaserContact | null;
  checkInInfo?: CheckInInfo;
}

/** `_include` values of lists and single tickets (spec). */
export const TICKET_INCLUDES = ['change_status', 'ticket_status', 'purchaser', 'checkInInfo'] as const;
/** A single ticket may also show its history (ours: one page of it, read by key). */
export const SINGLE_TICKET_INCLUDES = [...TICKET_INCLUDES, 'history'] as const;
export type TicketInclude = (typeof SINGLE_TICKET_INCLUDES)[number];

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
