import {
  holdsOrderFor,
  listCustomerEvents,
  listPublishedEvents,
  PORTAL_EVENT_CAP,
  soldByEvent,
} from '../../data/customer-events.ts';
import { getEvent, listTicketTypes } from '../../data/events.ts';
import { findPaymentProcessor } from '../../data/payment-processors.ts';
import { listWaveTimes } from '../../data/wave-times.ts';
import type { Event } from '../../domain/event.ts';
import type { Page } from '../../domain/paging.ts';
import type { PaymentProcessor } from '../../domain/payment-processor.ts';
import {
  byStart,
  eventMatcher,
  ticketTypeEntries,
  toEventEntry,
  type EventEntry,
  type EventFilter,
  type TicketTypeEntry,
} from '../../domain/portal-event.ts';
import { waveTimeEntries, type WaveTimeEntry } from '../../domain/wave-time.ts';
import { NotFound, ValidationError } from '../../errors.ts';

/**
 * The portal's catalogue: the events a customer can access (published, or one they hold
 * an order for), an accessible event's ticket types and wave times, the payment processor.
 */
export interface PortalEventQuery extends EventFilter {
  /** Unix seconds, inclusive; undefined: unbounded. */
  fromEventStart?: number;
  toEventStart?: number;
  /** `orders`: only events the customer holds an order for. */
  scope: 'orders' | 'all';
  limit: number;
  offset: number;
}

const isoOf = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();

/**
 * `GET /my-account/event`: two bounded reads (published events in the start range, the
 * customer's linked events), merged, filtered and paged in memory. When either read would
 * pass its cap the list cannot be answered whole: a 400 naming the narrower query (a start
 * window; for a customer's own events there is no narrower one, and 500 is far above any
 * buyer's), never a page that silently leaves events out.
 */
export async function listPortalEvents(customerId: number, query: PortalEventQuery): Promise<Page<EventEntry>> {
  const range = { from: isoOf(query.fromEventStart), to: isoOf(query.toEventStart) };
  const [published, linked] = await Promise.all([
    query.scope === 'all' ? listPublishedEvents(range) : { events: [], cut: false },
    listCustomerEvents(customerId),
  ]);
  if (published.cut || linked.cut) throw tooManyEvents(published.cut);
  const inRange = (event: Event) =>
    (!range.from || event.startsAt >= range.from) && (!range.to || event.startsAt <= range.to);
  const byId = new Map<number, Event>();
  for (const event of [...published.events, ...linked.events.filter(inRange)]) byId.set(event.id, event);
  const matches = [...byId.values()].filter(eventMatcher(query)).sort(byStart);
  const shown = matches.slice(query.offset, query.offset + query.limit);
  const sold = await soldByEvent(shown.map((event) => event.id));
  return {
    totalCount: matches.length,
    limit: query.limit,
    offset: query.offset,
    items: shown.map((event) => toEventEntry(event, sold.get(event.id) ?? 0)),
  };
}

function tooManyEvents(published: boolean): ValidationError {
  const field = published ? 'fromEventStart' : 'return';
  const message = published
    ? `More than ${PORTAL_EVENT_CAP} published events start in this window: narrow it with fromEventStart and toEventStart (unix seconds).`
    : `This account holds orders for more than ${PORTAL_EVENT_CAP} events, more than one request lists.`;
  return new ValidationError(message, [
    { path: `query.${field}`, message: `more than ${PORTAL_EVENT_CAP} events match` },
  ]);
}

/** The event, when the customer can access it (published, or they hold an order for it); otherwise 404, as if it did not exist. */
export async function accessibleEvent(customerId: number, eventId: number): Promise<Event> {
  const [event, linked] = await Promise.all([getEvent(eventId), holdsOrderFor(customerId, eventId)]);
  if (!event.published && !linked) throw new NotFound('Event', eventId);
  return event;
}

/** `GET /my-account/ticket-type/{eventId}`: the event's types by `ordering`, then id (at most MAX_TICKET_TYPES: one Query). */
export async function listPortalTicketTypes(
  customerId: number,
  eventId: number,
  paging: { limit: number; offset: number },
): Promise<Page<TicketTypeEntry>> {
  const [, types] = await Promise.all([accessibleEvent(customerId, eventId), listTicketTypes(eventId)]);
  const entries = ticketTypeEntries(types);
  return { totalCount: entries.length, ...paging, items: entries.slice(paging.offset, paging.offset + paging.limit) };
}

/** `GET /my-account/wave-time/{eventId}`: the event's waves by start time, in the event's time zone. */
export async function listPortalWaveTimes(customerId: number, eventId: number): Promise<WaveTimeEntry[]> {
  const [event, waves] = await Promise.all([accessibleEvent(customerId, eventId), listWaveTimes(eventId)]);
  return waveTimeEntries(waves, event.timezone);
}

/** `GET /my-account/payment-processor`: 404 when none is configured. */
export async function paymentProcessor(): Promise<PaymentProcessor> {
  const settings = await findPaymentProcessor();
  if (!settings) throw new NotFound('Payment processor');
  return settings;
}
