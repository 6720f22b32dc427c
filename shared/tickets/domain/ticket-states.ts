/**
 * Ticket states: which state changes a request may make, and through which path.
 *
 * What a gate relies on:
 * - No way back from checked-in except an explicit undo, which has its own permission
 *   (`checkin:undo`): if an edit could un-admit a ticket, it could be scanned in twice.
 * - A transferred original stays transferred: its replacement holds the place, so
 *   reviving the original would admit two people on one sale. It can only be deleted.
 * - A cancelled ticket is restored only through the explicit states route, never as a
 *   side effect of an edit, because restoring gives it a place back.
 * - Deciding is pure. The caller records every accepted change with its actor, in the
 *   same write that stores it, so the history cannot disagree with the ticket.
 *
 * Cross-field rules look at the ticket's current states before the per-field table
 * (ticket-transitions.ts, with the types the states are written in), so a refusal names
 * the condition the ticket is in rather than the path that was tried.
 */
import { isEligible, PROCESS_STATE, type ProcessState, type TicketRecord } from './ticket.ts';
import {
  TRANSITIONS,
  type StateField,
  type StateRefusal,
  type TicketStates,
  type Transition,
  type Via,
} from './ticket-transitions.ts';

/** Changes to the kept counts: `sold` (eligible), `checkedIn` (eligible and checked in), `cancelled` (not deleted, cancelled). */
export interface CounterEffect {
  sold: number;
  checkedIn: number;
  cancelled: number;
}

const FIELDS: readonly StateField[] = ['processState', 'transferState', 'upgradeState', 'withdrawnState', 'deleted'];

const { active: P1, checkedIn: P2, cancelled: P4 } = PROCESS_STATE;

export type StateDecision =
  | { ok: true; next: TicketStates; changed: StateField[]; effect: CounterEffect }
  | { ok: false; field: StateField; from: string | number; to: string | number; reason: StateRefusal; message: string };

const rowOf = (field: StateField, from: unknown, to: unknown): Transition | undefined =>
  TRANSITIONS.find((r) => r.field === field && r.from === from && r.to === to);

/** The cross-field rule `field`'s change breaks, judged from the ticket's (restored) current states. */
function crossFieldRefusal(base: TicketStates, next: TicketStates, field: StateField): StateRefusal | undefined {
  const to = next[field];
  // The replacement holds the place; the original may only leave the list.
  if (base.transferState === 'transferred') return field === 'deleted' && to === 1 ? undefined : 'transferred';
  const transferring = field === 'transferState' && to === 'transferred';
  // Someone was admitted on this ticket; withdrawing or handing it on would hide that.
  if (base.processState === P2 && (transferring || (field === 'withdrawnState' && to === 'withdrawn')))
    return 'checked_in';
  // A cancelled ticket holds no place, so there is nothing to withdraw, upgrade or hand on.
  if (
    base.processState === P4 &&
    next.processState === P4 &&
    (transferring || field === 'withdrawnState' || field === 'upgradeState')
  ) {
    return 'cancelled';
  }
  // The attendee gave up the place; admitting or handing it on needs a reinstatement first.
  if (
    base.withdrawnState === 'withdrawn' &&
    next.withdrawnState === 'withdrawn' &&
    (transferring || (field === 'processState' && to === P2))
  ) {
    return 'withdrawn';
  }
  return undefined;
}

/** Decide whether a request through `via` may move a ticket from `current` to `requested`. */
export function decideStateChange(
  current: TicketStates,
  requested: Partial<TicketStates>,
  via: readonly Via[],
): StateDecision {
  const next: TicketStates = { ...current };
  for (const field of FIELDS) {
    const value = requested[field];
    if (value !== undefined) (next as Record<StateField, unknown>)[field] = value;
  }
  const changed = FIELDS.filter((field) => next[field] !== current[field]);
  const refuse = (field: StateField, reason: StateRefusal): StateDecision => {
    const from = current[field];
    const to = next[field];
    return { ok: false, field, from, to, reason, message: messageFor(field, from, to, reason) };
  };

  let base = current;
  let pending = changed;
  if (current.deleted === 1 && changed.length > 0) {
    // A deleted ticket is out of every list: restore it first, and explicitly.
    if (next.deleted !== 0 || !via.includes('states')) return refuse(changed[0]!, 'deleted');
    base = { ...current, deleted: 0 };
    pending = changed.filter((field) => field !== 'deleted');
  }
  for (const field of pending) {
    const reason = crossFieldRefusal(base, next, field);
    if (reason) return refuse(field, reason);
  }
  for (const field of pending) {
    const transition = rowOf(field, base[field], next[field]);
    if (!transition) throw new Error(`No transition for ${field} ${String(base[field])} -> ${String(next[field])}`);
    if (!transition.via.some((path) => via.includes(path))) return refuse(field, transition.refusal);
  }
  return { ok: true, next, changed, effect: counterEffect(current, next) };
}

export const statesOf = (record: Pick<TicketRecord, StateField>): TicketStates => ({
  processState: record.processState,
  transferState: record.transferState,
  upgradeState: record.upgradeState,
  withdrawnState: record.withdrawnState,
  deleted: record.deleted,
});

/** The record with the decided states; leaving checked-in clears `checkIn` (the simple scan). */
export function withStates(record: TicketRecord, next: TicketStates): TicketRecord {
  // A scan kept after an undo would show an admission the counts no longer hold.
  const leavesCheckIn = record.processState === P2 && next.processState !== P2;
  return { ...record, ...statesOf(next), checkIn: leavesCheckIn ? null : record.checkIn };
}

const counts = (states: TicketStates): CounterEffect => {
  const eligible = isEligible(states);
  return {
    sold: eligible ? 1 : 0,
    checkedIn: eligible && states.processState === P2 ? 1 : 0,
    cancelled: states.deleted === 0 && states.processState === P4 ? 1 : 0,
  };
};

/** The counter effect of going from one full state to another, from eligibility (not from the table): used by tests to prove the table right, and usable by storage. */
export function counterEffect(before: TicketStates, after: TicketStates): CounterEffect {
  const [a, b] = [counts(before), counts(after)];
  return { sold: b.sold - a.sold, checkedIn: b.checkedIn - a.checkedIn, cancelled: b.cancelled - a.cancelled };
}

const PROCESS_LABELS: Record<ProcessState, string> = { 0: 'pending', 1: 'active', 2: 'checked in', 4: 'cancelled' };
const show = (field: StateField, value: string | number): string =>
  field === 'processState' ? `${value} (${PROCESS_LABELS[value as ProcessState]})` : String(value);

function hint(field: StateField, to: string | number, reason: StateRefusal): string {
  switch (reason) {
    case 'checked_in':
      return field === 'processState' && to === P1
        ? 'undo the check-in with the checkin:undo permission'
        : 'the ticket is checked in; undo the check-in with the checkin:undo permission first';
    case 'cancelled':
      return 'a cancelled ticket can only be restored to active, through the states route';
    case 'transferred':
      return 'a transferred original stays transferred and can only be deleted';
    case 'deleted':
      return field === 'deleted' && to === 1
        ? 'delete the ticket through the delete route'
        : 'a deleted ticket must first be restored with deleted: 0 through the states route';
    case 'upgraded':
      return 'an upgrade cannot be undone';
    case 'withdrawn':
      return field === 'withdrawnState' && to === 'withdrawn'
        ? 'withdraw a ticket by editing it or through the states route'
        : 'a withdrawn ticket must first be reinstated through the states route';
    case 'use_check_in':
      return 'a ticket is checked in only by scanning it at the gate';
    case 'use_transfer':
      return 'a ticket is transferred only through the transfer route';
    case 'not_admissible':
      if (field === 'upgradeState') return 'an upgrade is recorded by an upgrade purchase or through the states route';
      return to === P2
        ? 'a pending ticket is never admitted'
        : 'issue a pending ticket by editing it or through the states route';
    case 'no_way_back':
      return 'an issued ticket never goes back to pending';
  }
}

const messageFor = (field: StateField, from: string | number, to: string | number, reason: StateRefusal): string =>
  `Ticket state ${field} cannot change from ${show(field, from)} to ${show(field, to)} here: ${hint(field, to, reason)}.`;
