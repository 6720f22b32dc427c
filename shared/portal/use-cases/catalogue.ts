import { stockLeft } from '../../selling/data/stock.ts';
import { mayAccess } from '../data/customer-events.ts';
import { soldByEvent } from '../../tickets/data/stats-shards.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { readOrderCounts } from '../../selling/data/customer-order-counts.ts';
import { findPaymentProcessor } from '../../selling/data/payment-processors.ts';
import {
  privateEventCount,
  publishedEventCount,
  readEvents,
  walkPortalEvents,
  decodeSortCursor,
  encodeSortCursor,
  checkPaging,
} from '../../lists/portal.ts';
import { listWaveTimes } from '../../events/data/wave-times.ts';
import { listShippingMethods } from '../../selling/data/shipping-methods.ts';
import type { Event } from '../../events/domain/event.ts';
import type { Page } from '../../domain/paging.ts';
import { type PaymentProcessorAnswer, paymentProcessorAnswer } from '../../selling/domain/payment-processor.ts';
import { stripePublishableKey } from '../../selling/services/payment-settings.ts';
import {
  eventMatcher,
  ticketTypeEntries,
  toEventEntry,
  type EventEntry,
  type EventFilter,
  type TicketTypeEntry,
} from '../domain/portal-event.ts';
import {
  eventSearchKey,
  offsetPastWindow,
  PORTAL_OFFSET_WINDOW,
  PORTAL_READ_BUDGET,
  tooSparse,
} from '../domain/portal-lists.ts';
import { waveTimeEntries, type WaveTimeEntry } from '../../events/domain/wave-time.ts';
import {
  questionEntries,
  shippingOptionOf,
  type QuestionEntry,
  type ShippingOption,
} from '../../selling/domain/portal-checkout.ts';
import { NotFound } from '../../errors.ts';

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
  /** The `next` of the previous page (then `offset` is 0). */
  cursor?: string;
}

/** A page of a portal list, the cursor of the following one (null on the last), and whether `totalCount` is only what was read. */
export interface CursorPage<T> extends Page<T> {
  next: string | null;
  totalCountIsEstimate: boolean;
  /** Index items the page read (the bench reports them; not in the answer). */
  itemsRead: number;
}

const isoOf = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();

/**
 * `GET /my-account/event`, in start order at any size: the published events (or, with a
 * text filter, the search index entries of its longest word) merged with the customer's
 * linked events (one entry per event, judged by the published side), or (`return=orders`)
 * the customer's linked events, read from the start or after `_cursor` until the page and
 * one more match are found
 * (shared/lists/portal-event-reads.ts). `_offset` + `_limit` stay within PORTAL_OFFSET_WINDOW. The
 * default query (no window, no text filter) counts from the kept counts, so its total is
 * exact on every page; otherwise a read that reached the end from the start is exact, and
 * anything else the matches read so far, flagged `totalCountIsEstimate`. Text filters read at
 * most PORTAL_READ_BUDGET index items a page: a page they cannot fill is a 400 naming a
 * narrower query, never a short page.
 */
export async function listPortalEvents(customerId: number, query: PortalEventQuery): Promise<CursorPage<EventEntry>> {
  checkPaging(query);
  if (query.offset + query.limit > PORTAL_OFFSET_WINDOW) throw offsetPastWindow();
  const after = query.cursor === undefined ? undefined : decodeSortCursor(query.cursor);
  const filtered = query.title !== undefined || !!query.search;
  const windowed = query.fromEventStart !== undefined || query.toEventStart !== undefined;
  const need = query.offset + query.limit + 1;
  const [read, counted] = await Promise.all([
    walkPortalEvents({
      customerId,
      scope: query.scope,
      from: isoOf(query.fromEventStart),
      to: isoOf(query.toEventStart),
      key: filtered ? eventSearchKey(query) : undefined,
      matches: filtered ? eventMatcher(query) : undefined,
      after,
      need,
      budget: PORTAL_READ_BUDGET,
    }),
    filtered || windowed ? undefined : countEvents(customerId, query.scope),
  ]);
  if (!read.complete && read.events.length < need)
    throw tooSparse(
      query.search ? 'search' : 'title',
      'search by a longer word, or narrow the start window with fromEventStart and toEventStart',
    );
  const shown = read.events.slice(query.offset, query.offset + query.limit);
  const [unread, sold] = await Promise.all([
    readEvents(shown.filter((walked) => !walked.event).map((walked) => walked.eventId)),
    soldByEvent(shown.map((walked) => walked.eventId)),
  ]);
  const events = shown.flatMap((walked) => {
    const event: Event | undefined = walked.event ?? unread.get(walked.eventId);
    return event ? [event] : [];
  });
  return {
    totalCount: counted ?? read.events.length,
    totalCountIsEstimate: counted === undefined && (!read.complete || after !== undefined),
    limit: query.limit,
    offset: query.offset,
    items: events.map((event) => toEventEntry(event, sold.get(event.id) ?? 0)),
    next: read.events.length > query.offset + query.limit ? encodeSortCursor(shown.at(-1)!.sort) : null,
    itemsRead: read.itemsRead,
  };
}

/** The default query's exact total from kept counts: the published events and the customer's linked ones unpublished now, or their linked events. */
async function countEvents(customerId: number, scope: 'orders' | 'all'): Promise<number | undefined> {
  const linked = Object.keys((await readOrderCounts(customerId)).byEvent).map(Number);
  if (scope === 'orders') return linked.length;
  const [published, hidden] = await Promise.all([publishedEventCount(), privateEventCount(linked)]);
  return hidden === undefined ? undefined : published + hidden;
}

/** `GET /my-account/ticket-type/{eventId}`: the event's types by `ordering`, then id (at most MAX_TICKET_TYPES: one Query). */
export async function listPortalTicketTypes(
  customerId: number,
  eventId: number,
  paging: { limit: number; offset: number },
): Promise<Page<TicketTypeEntry>> {
  const [event, types] = await Promise.all([accessibleEvent(customerId, eventId), listTicketTypes(eventId)]);
  // Held tickets are not available: what the types' stock has left (one BatchGetItem).
  const entries = ticketTypeEntries(types, await stockLeft(types), event);
  return { totalCount: entries.length, ...paging, items: entries.slice(paging.offset, paging.offset + paging.limit) };
}

/** `GET /my-account/wave-time/{eventId}`: the event's waves by start time, in the event's time zone. */
export async function listPortalWaveTimes(customerId: number, eventId: number): Promise<WaveTimeEntry[]> {
  const [event, waves] = await Promise.all([accessibleEvent(customerId, eventId), listWaveTimes(eventId)]);
  return waveTimeEntries(waves, event.timezone);
}

/**
 * `GET /my-account/shipping-method`: the methods a buyer may name in a reservation, in id order, as the staff's
 * list reads them (one Query of at most `_offset + _limit` items, the total from the kept count): the same for
 * every customer.
 */
export async function listPortalShippingMethods(paging: {
  limit: number;
  offset: number;
}): Promise<Page<ShippingOption>> {
  const page = await listShippingMethods(paging);
  return { ...page, items: page.items.map(shippingOptionOf) };
}

/** `GET /my-account/question/{eventId}`: the event's attendee questions (at most MAX_QUESTIONS, on the event item: one GetItem). */
export async function listPortalQuestions(
  customerId: number,
  eventId: number,
  paging: { limit: number; offset: number },
): Promise<Page<QuestionEntry>> {
  const entries = questionEntries((await accessibleEvent(customerId, eventId)).questions);
  return { totalCount: entries.length, ...paging, items: entries.slice(paging.offset, paging.offset + paging.limit) };
}

/**
 * `GET /my-account/payment-processor`: 404 when none is configured; the stage's Stripe key over the record's. With
 * `eventId`, an event the customer can access (else 404, as a missing one), whose currency it answers.
 */
export async function paymentProcessor(customerId: number, eventId?: number): Promise<PaymentProcessorAnswer> {
  const [settings, event] = await Promise.all([
    findPaymentProcessor(),
    eventId === undefined ? undefined : accessibleEvent(customerId, eventId),
  ]);
  if (!settings) throw new NotFound('Payment processor');
  return paymentProcessorAnswer(settings, stripePublishableKey(), event);
}

/** The event, when the customer can access it (customer-events.ts `mayAccess`); otherwise 404, as if it did not exist. */
async function accessibleEvent(customerId: number, eventId: number): Promise<Event> {
  const event = await getEvent(eventId);
  if (!(await mayAccess(customerId, event))) throw new NotFound('Event', eventId);
  return event;
}
