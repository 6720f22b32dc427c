import { batchGet } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { createEvent } from '../data/event-creation.ts';
import { eventListing } from '../../lists/event-listing.ts';
import { now } from '../../clock.ts';
import { checkBookingFee, checkPrices } from '../domain/event-admin.ts';
import type { NewEvent } from '../domain/event.ts';
import { toEventView, type EventView } from '../domain/event-resource.ts';
import { Forbidden, ValidationError } from '../../errors.ts';
import type { NewEventBody } from '../domain/event-bodies.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import type { Caller } from './event-reads.ts';

/**
 * `POST /events`, apart from the edits (edit-events.ts), so its request reaches only what a creation runs: check the
 * caller, ask the rules (shared/events/domain/event-admin.ts), commit once (shared/events/data/event-creation.ts).
 */

/** Only an administrator who reaches every event creates one (a scoped one could not reach it). */
function assertUnscoped(caller: Caller): void {
  if (caller.eventScope) throw new Forbidden('An administrator limited to some events cannot create events.');
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
