import { listTicketTypes } from '../data/events.ts';
import { commitEventChange, type HistoryAction } from '../data/event-admin-writes.ts';
import { eventListingMoves } from '../../lists/event-listing.ts';
import { now } from '../../clock.ts';
import { applyEventPatch, checkCurrencyChange, checkBookingFee, type EventPatch } from '../domain/event-admin.ts';
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
