import * as z from '../../schema.ts';

/**
 * A ticket's codes: its state fields and their values, its attendee answers and its `_include` expansions; the words
 * the ticket's schema (ticket-resource.ts) and its rules (ticket.ts) are written in. Apart from the schema, so the
 * rules' modules import only its types and a route that answers no ticket does not build it.
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
export const attendeeAnswerFields = () => ({
  questionId: z.int(),
  answerId: z.optional(z.int()),
  answerText: z.optional(z.string()),
  dynamicQuantity: z.optional(z.int()),
  displayText: z.optional(z.string()),
  sku: z.optional(z.string()),
});
export const AttendeeAnswerResource = z.lazy(() => z.strictObject(attendeeAnswerFields()));
export type AttendeeAnswer = z.output<typeof AttendeeAnswerResource>;

/** A ticket's five state fields: the ones its state machine (ticket-states.ts) moves. */
export const STATE_FIELDS = ['processState', 'transferState', 'upgradeState', 'withdrawnState', 'deleted'] as const;
export type StateField = (typeof STATE_FIELDS)[number];

/** `_include` values of lists and single tickets (spec). */
export const TICKET_INCLUDES = ['change_status', 'ticket_status', 'purchaser', 'checkInInfo'] as const;
/** A single ticket may also show its history (ours: one page of it, read by key). */
export const SINGLE_TICKET_INCLUDES = [...TICKET_INCLUDES, 'history'] as const;
export type TicketInclude = (typeof SINGLE_TICKET_INCLUDES)[number];

/** What a change was, in the words of the route or operation that made it (a history entry's `action`). */
export const TICKET_ACTIONS = [
  'create',
  'edit',
  'check_in',
  'access_scan',
  'undo_check_in',
  'transfer',
  'delete',
  'states',
  'profile_photo',
  // Claims (claim.ts): opened, sent to another claimant, accepted by the claimant.
  'claim',
  'claimant',
  'claimed',
  // Orders (order-cancel.ts): cancelled with its order; `force_cancel_order` when `force` cancelled a checked-in ticket.
  'cancel_order',
  'force_cancel_order',
] as const;
export type TicketAction = (typeof TICKET_ACTIONS)[number];
