import { batchGet } from '../../data/client.ts';
import { listTicketTypes } from '../data/events.ts';
import { createEvent } from '../data/event-creation.ts';
import { commitEventChange, type HistoryAction } from '../data/event-admin-writes.ts';
import { keys } from '../../data/keys.ts';
import { eventListing, eventListingMoves } from '../../lists/event-listing.ts';
import { now } from '../../clock.ts';
import {
  applyEventPatch,
  checkCurrencyChange,
  checkBookingFee,
  checkPrices,
  type EventPatch,
} from '../domain/event-admin.ts';
import { saleCurrency, type NewEvent } from '../domain/event.ts';
import { toEventView, type EventView } from '../domain/event-resource.ts';
import { Conflict, Forbidden, ValidationError } from '../../errors.ts';
import type { EventPatchBody, NewEventBody } from '../domain/event-bodies.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import { eventFor, holdsOf, wholeEvent, type Caller } from './event-reads.ts';

/**
 * The events routes' changes, in order: check the caller, load, ask the rules
 * (shared/events/domain/event-admin.ts), ask the portal's lists for their part (shared/lists/portal.ts),
 * commit once (shared/events/data/event-admin-writes.ts).
 */

/** Only an administrator who reaches every event creates one (a scoped one could not reach it). */
function assertUnscoped(caller: Caller): void {
  if (caller.eventScope) throw new Forbidden('An administrator limited to some events cannot create events.');
}

/** A version the client names must be the one stored (409 `stale_version`). */
export function assertVersion(stored: number | undefined, named: number | undefined, id: number): void {
  if (named !== undefined && named !== (stored ?? 1))
    throw new Conflict(`Event ${id} is at version ${stored ?? 1}, not ${named}: read it again.`, 'stale_version', {
      version: stored ?? 1,
    });
}

/**
 * Access packages name events the caller may edit: a 400 naming the first other one. An event outside a scoped
 * caller's events is answered as a missing one (and not even read), so a grant neither reaches another organiser's
 * gate nor tells whether their event exists.
 */
export async function checkGrants(
  caller: Caller,
  grants: { path: string; eventIds: readonly number[] }[],
): Promise<void> {
  const ids = [...new Set(grants.flatMap((grant) => grant.eventIds))].filter((id) => inScope(caller.eventScope, id));
  const found = new Set(
    ids.length
      ? (await batchGet(ids.map((id) => keys.event(id)))).flatMap((item) => (item ? [Number(item.id)] : []))
      : [],
  );
  for (const grant of grants)
    for (const [i, eventId] of grant.eventIds.entries())
      if (!found.has(eventId))
        throw new ValidationError(`Event ${eventId} does not exist.`, [
          { path: `${grant.path}.${i}`, message: `event ${eventId} does not exist` },
        ]);
}

/** `POST /events`: a draft with everything given, one transaction (shared/events/data/event-creation.ts). */
export async function createEventFor(caller: Caller, body: NewEventBody): Promise<EventView> {
  assertUnscoped(caller);
  const types = body.ticketTypes ?? [];
  checkPrices(
    types.map((type, i) => ({ path: `body.ticketTypes.${i}.price`, price: type.price })),
    body.currency,
  );
  checkBookingFee(body.bookingFee, body.currency);
  await checkGrants(
    caller,
    types.map((type, i) => ({ path: `body.ticketTypes.${i}.grants`, eventIds: type.grants ?? [] })),
  );
  const { start, ticketTypes: _types, ...rest } = body;
  const at = now().toISOString();
  const input: NewEvent & { updated: string; updatedBy: number } = {
    ...rest,
    startsAt: start,
    published: false,
    ticketTypes: types,
    updated: at,
    updatedBy: caller.id,
  };
  const created = await createEvent(input, eventListing, { by: caller.id, at });
  return toEventView({ ...created, ticketTypes: created.ticketTypes.map((type) => ({ ...type, sold: 0 })) });
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
