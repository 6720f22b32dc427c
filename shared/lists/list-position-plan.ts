import { PROCESS_STATE } from '../tickets/domain/ticket.ts';

/**
 * The kept list positions, pure: the blocks of ticket ids an `_offset` page is found by,
 * the team lists' spans of blocks, and the counters a ticket moves in them. Which lists a
 * filter is positioned by is ticket-list-plan.ts (`positionLists`); the items and their reads
 * are shared/lists/list-positions.ts and list-position-reads.ts.
 */

/**
 * Ticket ids per block of the kept list positions (shared/lists/list-positions.ts): an
 * `_offset` page sums the blocks before it and reads fewer than this many tickets to skip.
 */
export const POSITION_BLOCK = 200;
export const blockOf = (ticketId: number): number => Math.floor(ticketId / POSITION_BLOCK);

/** Where a list's position items are kept: an event's lists under the event, a customer's tickets (of every event) under the customer. */
export type PositionHolder = { eventId: number } | { customerId: number };

/** One list whose positions are kept (`event`, `team#<k>` or `access` under an event, CUSTOMER_LIST under a customer), or only some of its parts (types). */
export type PositionList = PositionHolder & {
  list: string;
  /** Count only these parts of each block (`typePart`), not the whole list. */
  parts?: string[];
};

/** A list kept under an event: every list a `GET /tickets` filter is positioned by (ticket-list-plan.ts `positionLists`). */
export type EventPositionList = Extract<PositionList, { eventId: number }>;

/**
 * A customer's live tickets across events, in id order (`GET /ticket?customerId=`), kept in
 * blocks and spans under the customer. That list is never filtered by state, so its items
 * count every ticket in one counter (CUSTOMER_COUNTER): no change of state (a payment, a
 * check-in, a cancellation) moves them, only a ticket entering or leaving the customer.
 */
export const CUSTOMER_LIST = 'tickets';
export const CUSTOMER_COUNTER = 'n';

/** A team's list (0: the tickets without one), kept in blocks of its own (shared/lists/list-positions.ts). */
export const teamList = (teamKey: number): string => `team#${teamKey}`;
/**
 * Position blocks per span of a team's list. A team's tickets are spread over its event's
 * ids, so an offset deep into it would sum hundreds of its blocks; each span item counts
 * SPAN_BLOCKS blocks' tickets, so an offset sums a few spans, then the blocks of one span
 * (shared/lists/list-positions.ts). An event's own list is dense: its blocks alone suffice.
 */
export const SPAN_BLOCKS = 10;
export const spanOf = (block: number): number => Math.floor(block / SPAN_BLOCKS);
/** A team list's spans, kept beside its blocks under the same event. */
export const spanList = (list: string): string => `span#${list}`;
/** Whether a list keeps spans: a team's (0 included) and a customer's, whose tickets are spread over many blocks. */
export const hasSpans = (list: string): boolean => list.startsWith('team#') || list === CUSTOMER_LIST;

/**
 * The state a span counts a ticket under: a checked-in ticket as an active one, so a check-in
 * (active → checked in, the gate's write) moves no span and costs nothing more. A filter that
 * keeps exactly one of those two states cannot be positioned by spans (`spanStates`).
 */
export const spanState = (state: number): number => (state === PROCESS_STATE.checkedIn ? PROCESS_STATE.active : state);

/** The span counters to sum for the included states, or undefined when they keep only one of active and checked in. */
export function spanStates(states: readonly number[]): number[] | undefined {
  const included = new Set(states);
  if (included.has(PROCESS_STATE.active) !== included.has(PROCESS_STATE.checkedIn)) return undefined;
  return [...included].filter((state) => spanState(state) === state);
}

/** A ticket's counters in a block (or span) of a list with type parts: its state's, whole and in its type's part. */
export const positionCounters = (state: number, typeId: number): string[] => [
  counterName(state),
  counterName(state, typePart(typeId)),
];

/** The counters of a list's items that hold its tickets in `states`: per state, of the whole list or of its parts; a customer's one. */
export function countersOf(list: PositionList, states: readonly number[]): string[] {
  if ('customerId' in list) return [CUSTOMER_COUNTER];
  return (list.parts ?? ['']).flatMap((part) => states.map((state) => counterName(state, part)));
}

/** A ticket type's part of a list's position blocks (every list of an event but the all-events one has them). */
export const typePart = (typeId: number): string => `y${typeId}`;
/** A block's counter of the tickets in `state`: of the whole list, or of one part (`y<type>`). */
export const counterName = (state: number, part = ''): string => `${part}s${state}`;
