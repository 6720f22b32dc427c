import { STATE_FIELDS } from './ticket-codes.ts';
import type { TicketAction, TicketCreation, TicketHistoryEntry } from './ticket-resource.ts';
import type { TicketRecord } from './ticket.ts';

export type { TicketAction, TicketCreation, TicketHistoryEntry, TicketHistoryPage } from './ticket-resource.ts';

/**
 * A ticket's history: one entry per change, written in the change's own transaction, so
 * the history cannot disagree with the ticket. Entry `n` is the change that produced the
 * ticket's version `n` (1 is its creation), which makes the history's length the
 * ticket's version and lets a page be read by key, newest first. Entry 1 is kept on the
 * record itself (`creation`, never changed after): a creation then writes no item of its
 * own, 2 units a ticket of every sale (shared/lists/README.md "A paid order's write units").
 */

/** The part of a creation's entry its record keeps. */
export function creationOf(entry: TicketHistoryEntry): TicketCreation {
  const { version: _version, states: _states, fields: _fields, ...creation } = entry;
  return creation;
}

/** Entry 1 of a ticket whose record keeps its creation, in the order every entry's keys are answered. */
export function creationEntry(creation: TicketCreation): TicketHistoryEntry {
  const { at, actor, eventScope, action, relatedTicketId } = creation;
  return {
    version: 1,
    at,
    actor,
    ...(eventScope ? { eventScope } : {}),
    action,
    states: {},
    fields: [],
    ...(relatedTicketId === undefined ? {} : { relatedTicketId }),
  };
}

/**
 * Who made a change. Administrators and customers act through tokens; the system through seeding and imports.
 * An administrator's `eventScope` (identity/use-cases/event-scope.ts) rides along for the checks and is kept in the
 * history entry: a reader can tell a change made within some events from one made by an administrator of all.
 */
export type Actor =
  | { kind: 'admin'; id: number; eventScope?: readonly number[] }
  | { kind: 'customer'; id: number }
  | { kind: 'system' };

/** `admin 3`, `customer 12`, `system`: how an actor reads in the history. */
export const actorLabel = (actor: Actor): string => (actor.kind === 'system' ? 'system' : `${actor.kind} ${actor.id}`);

// Bookkeeping that changes with every write says nothing to a reader.
const UNREPORTED = new Set<string>(['version', 'updated', 'checkIn', 'accessScans', ...STATE_FIELDS]);

/** The history entry of a change from `before` (null: created) to `after`. */
export function historyEntry(
  before: TicketRecord | null,
  after: TicketRecord,
  change: { actor: Actor; action: TicketAction; at: string },
): TicketHistoryEntry {
  const states: TicketHistoryEntry['states'] = {};
  for (const field of STATE_FIELDS) {
    if (before && before[field] !== after[field]) states[field] = { from: before[field], to: after[field] };
  }
  const fields = before
    ? Object.keys(after).filter(
        (name) =>
          !UNREPORTED.has(name) &&
          JSON.stringify(before[name as keyof TicketRecord]) !== JSON.stringify(after[name as keyof TicketRecord]),
      )
    : [];
  const related = before
    ? before.transferredTo !== after.transferredTo
      ? after.transferredTo
      : null
    : after.transferredFrom;
  return {
    version: (before?.version ?? 0) + 1,
    at: change.at,
    actor: actorLabel(change.actor),
    // Only scoped administrators' entries grow (by a few bytes): the common entry stays as it was.
    ...(change.actor.kind === 'admin' && change.actor.eventScope ? { eventScope: [...change.actor.eventScope] } : {}),
    action: change.action,
    states,
    fields: fields.sort(),
    ...(related ? { relatedTicketId: related } : {}),
  };
}
