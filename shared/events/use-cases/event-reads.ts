import type { AdminPrincipal } from '../../auth/tokens.ts';
import { getEvent, listTicketTypes } from '../data/events.ts';
import { eventHasTickets, listTeams } from '../data/event-admin-reads.ts';
import { listWaveTimes } from '../data/wave-times.ts';
import { eventWaivers } from '../data/waivers.ts';
import type { CreatedEvent, Event, TicketType, TypeWithSold } from '../domain/event.ts';
import { withSold } from '../../selling/data/stock.ts';
import type { EventHolds } from '../domain/event-admin.ts';
import { toEventView, type EventView } from '../domain/event-resource.ts';
import { NotFound } from '../../errors.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';

/** The events routes' reads of one event (the list and the history: event-list.ts). Outside the caller's events: 404. */

export type Caller = Pick<AdminPrincipal, 'id' | 'eventScope'>;

/** The event, when the caller's scope reaches it (else 404, as for a missing one). */
export async function eventFor(caller: Caller, id: number): Promise<Event> {
  if (!inScope(caller.eventScope, id)) throw new NotFound('Event', id);
  return getEvent(id);
}

/**
 * The event with its types (unless already read) and their `sold` (one BatchGetItem of their stock), waves, teams and
 * waivers: four bounded Queries at once.
 */
export async function wholeEvent(
  event: Event,
  types?: TicketType[],
): Promise<CreatedEvent & { ticketTypes: TypeWithSold[] }> {
  const [ticketTypes, waveTimes, teams, waivers] = await Promise.all([
    (types ? Promise.resolve(types) : listTicketTypes(event.id)).then(withSold),
    listWaveTimes(event.id),
    listTeams(event.id),
    eventWaivers(event.id),
  ]);
  return { ...event, ticketTypes, waveTimes, teams, waivers };
}

export async function readEventFor(caller: Caller, id: number): Promise<EventView> {
  return toEventView(await wholeEvent(await eventFor(caller, id)));
}

/** What limits the event's edits (event-admin.ts `EventHolds`). */
export async function holdsOf(event: Event, typeCount?: number): Promise<EventHolds> {
  const [types, hasTickets] = await Promise.all([
    typeCount === undefined ? listTicketTypes(event.id).then((list) => list.length) : typeCount,
    eventHasTickets(event.id),
  ]);
  return { ticketTypes: types, hasTickets };
}
