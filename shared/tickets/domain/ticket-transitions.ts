/**
 * The words a ticket's state changes are written in (its five state fields, the paths a
 * change comes through, the refusals) and the per-field transition table: one row per
 * move, with the paths that may make it and what it does to the kept counts. Apart from
 * ticket-states.ts, which decides a request with it, because the table is read on its own
 * too: the OpenAPI document prints it and the unit tests prove its counter effects.
 */
import { PROCESS_STATE, type StateField } from './ticket-codes.ts';
import type { Ticket } from './ticket-resource.ts';

export type { StateField };
/** A ticket's five state fields and their values. */
export type TicketStates = Pick<Ticket, StateField>;

/** The path a change comes through. A request may hold several (e.g. the states route plus, for a caller with the `checkin:undo` permission, 'undo_check_in'). */
export type Via =
  | 'edit'
  | 'states'
  | 'check_in'
  | 'undo_check_in'
  | 'transfer'
  | 'delete'
  | 'upgrade'
  /** `POST /orders/{id}/cancel`: its tickets to cancelled. */
  | 'cancel_order'
  /** The same with `force: true`: a checked-in ticket too (recorded as `force_cancel_order` in its history). */
  | 'force_cancel';

export type StateRefusal =
  | 'checked_in'
  | 'cancelled'
  | 'transferred'
  | 'deleted'
  | 'upgraded'
  | 'withdrawn'
  | 'use_check_in'
  | 'use_transfer'
  | 'not_admissible'
  | 'no_way_back';

type Step = -1 | 0 | 1;
interface Row<F extends StateField> {
  field: F;
  from: TicketStates[F];
  to: TicketStates[F];
  /** Paths that may make this move; empty means none may. */
  via: readonly Via[];
  /** Why the move is refused when the request comes through none of `via`. */
  refusal: StateRefusal;
  /** On the kept counts, when the rest of the ticket is active, not transferred/withdrawn, not deleted. */
  effect: { sold: Step; checkedIn: Step; cancelled: Step };
  note: string;
}
export type Transition = { [F in StateField]: Row<F> }[StateField];

const row = <F extends StateField>(
  field: F,
  from: TicketStates[F],
  to: TicketStates[F],
  via: readonly Via[],
  refusal: StateRefusal,
  [sold, checkedIn, cancelled]: readonly [Step, Step, Step],
  note: string,
): Row<F> => ({ field, from, to, via, refusal, effect: { sold, checkedIn, cancelled }, note });

const { pending: P0, active: P1, checkedIn: P2, cancelled: P4 } = PROCESS_STATE;

/** One row per (field, from, to) with from !== to: 12 for processState, 2 for each other field. */
export const TRANSITIONS: readonly Transition[] = [
  row(
    'processState',
    P0,
    P1,
    ['edit', 'states'],
    'not_admissible',
    [0, 0, 0],
    'Paying for a reservation issues the ticket.',
  ),
  row('processState', P0, P2, [], 'not_admissible', [0, 1, 0], 'A pending ticket is unpaid, so nothing admits it.'),
  row(
    'processState',
    P0,
    P4,
    ['edit', 'states', 'cancel_order'],
    'cancelled',
    [-1, 0, 1],
    'An unpaid reservation can be dropped, freeing its place.',
  ),
  row(
    'processState',
    P1,
    P0,
    [],
    'no_way_back',
    [0, 0, 0],
    'An issued ticket was paid for; it never becomes a reservation again.',
  ),
  row(
    'processState',
    P1,
    P2,
    ['check_in'],
    'use_check_in',
    [0, 1, 0],
    'Only the gate scan admits, so the scan record and the count move together.',
  ),
  row(
    'processState',
    P1,
    P4,
    ['edit', 'states', 'cancel_order'],
    'cancelled',
    [-1, 0, 1],
    'Cancelling an issued ticket frees its place.',
  ),
  row('processState', P2, P0, [], 'checked_in', [0, -1, 0], 'An admitted ticket was paid for and used.'),
  row(
    'processState',
    P2,
    P1,
    ['undo_check_in'],
    'checked_in',
    [0, -1, 0],
    'Un-admitting reopens the gate for the ticket, so it has its own permission.',
  ),
  row(
    'processState',
    P2,
    P4,
    ['force_cancel'],
    'checked_in',
    [-1, -1, 1],
    'Cancelling would hide an admission: undo the check-in first, or cancel its order with `force` (recorded).',
  ),
  row('processState', P4, P0, [], 'cancelled', [1, 0, -1], 'A cancelled ticket comes back issued, not reserved.'),
  row(
    'processState',
    P4,
    P1,
    ['states'],
    'cancelled',
    [1, 0, -1],
    'Restoring gives the place back, so only the explicit route does it.',
  ),
  row('processState', P4, P2, [], 'cancelled', [1, 1, -1], 'A cancelled ticket is never admitted; restore it first.'),
  row(
    'transferState',
    'none',
    'transferred',
    ['transfer'],
    'use_transfer',
    [-1, 0, 0],
    'Only the transfer route creates the replacement that takes the place.',
  ),
  row(
    'transferState',
    'transferred',
    'none',
    [],
    'transferred',
    [1, 0, 0],
    'The replacement holds the place; reviving the original would admit two.',
  ),
  row(
    'upgradeState',
    'none',
    'upgraded',
    ['states', 'upgrade'],
    'not_admissible',
    [0, 0, 0],
    'An upgrade purchase records it; the states route may record one made elsewhere.',
  ),
  row(
    'upgradeState',
    'upgraded',
    'none',
    [],
    'upgraded',
    [0, 0, 0],
    'The later ticket exists; forgetting the upgrade would orphan it.',
  ),
  row(
    'withdrawnState',
    'none',
    'withdrawn',
    ['edit', 'states'],
    'withdrawn',
    [-1, 0, 0],
    'Staff record a withdrawal by edit or explicitly; it frees the place.',
  ),
  row(
    'withdrawnState',
    'withdrawn',
    'none',
    ['states'],
    'withdrawn',
    [1, 0, 0],
    'Reinstating takes a place back, so only the explicit route does it.',
  ),
  row(
    'deleted',
    0,
    1,
    ['delete', 'states'],
    'deleted',
    [-1, 0, 0],
    'Deletion is soft, so the explicit route can undo it.',
  ),
  row(
    'deleted',
    1,
    0,
    ['states'],
    'deleted',
    [1, 0, 0],
    'Undeleting is a restore, so only the explicit route does it.',
  ),
];
