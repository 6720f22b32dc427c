import { listTicketTypes } from '../data/events.ts';
import { listTeams } from '../data/event-admin-reads.ts';
import {
  commitEventChange,
  commitEventDeletion,
  eventLeftovers,
  type HistoryAction,
} from '../data/event-admin-writes.ts';
import { keys } from '../../data/keys.ts';
import { listWaveTimes } from '../data/wave-times.ts';
import { eventWaivers } from '../data/waivers.ts';
import { eventListingMoves } from '../../lists/event-listing.ts';
import { now } from '../../clock.ts';
import {
  applyEventPatch,
  checkCurrencyChange,
  checkBookingFee,
  checkDeletable,
  type EventPatch,
} from '../domain/event-admin.ts';
import { saleCurrency } from '../domain/event.ts';
import { toEventView, type EventView } from '../domain/event-resource.ts';
import { Conflict } from '../../errors.ts';
import type { EventPatchBody } from '../domain/event-bodies.ts';
import { eventFor, holdsOf, wholeEvent, type Caller } from './event-reads.ts';

/**
 * The events routes' changes, in order: check the caller, load, ask the rules
 * (shared/events/domain/event-admin.ts), ask the portal's lists for their part (shared/lists/portal.ts),
 * commit once (shared/events/data/event-admin-writes.ts).
 */

/** A version the client names must be the one stored (409 `stale_version`). */
export function assertVersion(stored: number | undefined, named: number | undefined, id: number): void {
  if (named !== undefined && named !== (stored ?? 1))
    throw new Conflict(`Event ${id} is at version ${stored ?? 1}, not ${named}: read it again.`, 'stale_version', {
      version: stored ?? 1,
    });
}

/** `PATCH /events/{id}`: listing fields, start, publication; conditional on the version read. */
export async function updateEventFor(caller: Caller, id: number, body: EventPatchBody): Promise<EventView> {
  const before = await eventFor(caller, id);
  assertVersion(before.version, body.version, id);
  const { version: _version, start, ...fields } = body;
  const patch: EventPatch = { ...fields, ...(start === undefined ? {} : { startsAt: start }) };
  const at = now().toISOString();
  const types = await listTicketTypes(id);
  const { next, changes } = applyEventPatch(before, patch, await holdsOf(before, types.length), at);
  if (changes.currency) checkCurrencyChange(types, next.currency!);
  if (changes.bookingFee || changes.currency) checkBookingFee(next.bookingFee, saleCurrency(next));
  if (!Object.keys(changes).length) return toEventView(await wholeEvent(before, types));
  const action: HistoryAction = changes.published ? (next.published ? 'published' : 'unpublished') : 'updated';
  const after = { ...next, version: (before.version ?? 1) + 1, updated: at, updatedBy: caller.id };
  await commitEventChange({ before, after, changes, action, by: caller.id, at }, eventListingMoves(before, after));
  return toEventView(await wholeEvent(after, types));
}

/** `DELETE /events/{id}`: only an event that never had tickets (409 otherwise: unpublish it). */
export async function deleteEventFor(caller: Caller, id: number, version?: number): Promise<{ id: number }> {
  const before = await eventFor(caller, id);
  assertVersion(before.version, version, id);
  const [types, teams, waves, waivers] = await Promise.all([
    listTicketTypes(id),
    listTeams(id),
    listWaveTimes(id),
    eventWaivers(id),
  ]);
  checkDeletable(before, await holdsOf(before, types.length));
  const at = now().toISOString();
  const after = { ...before, version: (before.version ?? 1) + 1 };
  const change = { before, after, changes: {}, action: 'deleted' as const, by: caller.id, at };
  await commitEventDeletion(change, eventListingMoves(before, undefined), [
    ...eventLeftovers(id, { types, teamIds: teams.map((team) => team.id), waveIds: waves.map((wave) => wave.id) }),
    // Its waivers go with it (no ticket signed them: it never had tickets); their versions stay, as its history does.
    ...waivers.map((waiver) => keys.waiver(id, waiver.ticketTypeId, waiver.id)),
  ]);
  return { id };
}
