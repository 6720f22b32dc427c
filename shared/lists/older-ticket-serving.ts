import { customerTicketCount } from './customer-ticket-list.ts';
import { findTicketType } from '../events/data/events.ts';
import { MAX_ORDER_TICKETS } from '../tickets/data/ticket-records.ts';
import type { SearchPartition } from './ticket-search-entries.ts';
import {
  customerTickets,
  eventPurchases,
  eventTickets,
  orderTickets,
  searchedTickets,
  ticketByBarcode,
  ticketUpdates,
  typePurchases,
  typeTickets,
} from './ticket-list-queries.ts';
import type { IndexRead, ReadBounds } from './merged-read.ts';
import { MAX_SCOPE_SYNC_EVENTS, type ServingIndex } from './older-ticket-list.ts';

/**
 * `GET /ticket`'s serving reads (older-ticket-list.ts): which index partition a filter set's
 * serving index reads. A type's purchase range and one event's sync read that type's or
 * event's own list once the event's mark says it holds every ticket, else the event's or
 * every event's with the filters applied on top.
 */

export function readServing(
  serving: Exclude<ServingIndex, { kind: 'barcode' | 'order' }>,
  bounds: ReadBounds,
  scope: readonly number[] | undefined,
): Promise<IndexRead> {
  switch (serving.kind) {
    case 'search':
      return searched(serving, bounds, scope);
    case 'customer':
      return customerTickets(serving.customerId, bounds);
    case 'updates':
      return updates(serving, bounds, scope);
    case 'purchases':
      return purchases(serving, bounds);
    case 'type':
      return typeTickets(serving.typeId, bounds);
    case 'event':
      return eventTickets(serving.eventId, bounds);
  }
}

/** A list of at most `size`: one more asked, so the read reaches its end. */
const whole = (size: number): ReadBounds => ({ need: size + 1, budget: size + 1, accept: () => true });

/** The lists always small enough to read whole: a barcode's live ticket, an order's (at most MAX_ORDER_TICKETS), in id order. */
export const readWhole = (serving: Extract<ServingIndex, { kind: 'barcode' | 'order' }>): Promise<IndexRead> =>
  serving.kind === 'barcode'
    ? ticketByBarcode(serving.barcode)
    : orderTickets(serving.orderId, whole(MAX_ORDER_TICKETS));

/**
 * A customer's list is read whole when their kept count says it holds at most this many live
 * tickets: a largest page's worth (`_limit` ≤ 100), so the read costs what such a page does.
 */
export const WHOLE_CUSTOMER_LIST = 100;

/** The customer's live tickets in id order when there are at most WHOLE_CUSTOMER_LIST (the count: one GetItem), else undefined. */
export async function readSmallCustomer(customerId: number): Promise<IndexRead | undefined> {
  const count = await customerTicketCount(customerId);
  if (count > WHOLE_CUSTOMER_LIST) return undefined;
  const read = await customerTickets(customerId, whole(WHOLE_CUSTOMER_LIST));
  // Sold to meanwhile past the bound: read as any served list.
  return read.complete ? read : undefined;
}

/** A search within the named event, or the type's own event (nothing for an unknown type); alone, across the events the caller may see. */
async function searched(
  serving: Extract<ServingIndex, { kind: 'search' }>,
  bounds: ReadBounds,
  scope: readonly number[] | undefined,
): Promise<IndexRead> {
  // No word (a one-digit id): only the id is looked up.
  const partitions = (where: SearchPartition[]) => (serving.key.word ? where : []);
  if (serving.eventId === undefined && serving.typeId === undefined) {
    return searchedTickets(
      partitions(scope ? scope.map((eventId) => ({ eventId })) : ['everyEvent']),
      serving.key,
      undefined,
      bounds,
      serving.ticketId,
    );
  }
  const eventId = await eventOf(serving);
  if (eventId === undefined) return nothing;
  return searchedTickets(partitions([{ eventId }]), serving.key, serving.typeId, bounds, serving.ticketId);
}

/** The event of the filters: `eventId`, else the type's (undefined for an unknown type). */
export const eventOf = async ({ eventId, typeId }: { eventId?: number; typeId?: number }) =>
  eventId ?? (typeId === undefined ? undefined : (await findTicketType(typeId))?.eventId);
const nothing: IndexRead = { records: [], complete: true, itemsRead: 0 };

/**
 * A purchase range. Of a type: the type's own purchase list, which holds only its tickets, so
 * a rare type among the event's sales fills its page from its own. Else the event's purchases.
 */
async function purchases(
  serving: Extract<ServingIndex, { kind: 'purchases' }>,
  bounds: ReadBounds,
): Promise<IndexRead> {
  const range = { from: serving.from, to: serving.to };
  const eventId = await eventOf(serving);
  if (eventId === undefined) return nothing;
  if (serving.typeId === undefined) return eventPurchases(eventId, range, bounds);
  return typePurchases(serving.typeId, range, bounds);
}

/**
 * The sync. Of one event (named, or the type's; nothing for an unknown type), or without
 * either of a scoped caller's events (at most MAX_SCOPE_SYNC_EVENTS): their own update
 * shards, which hold only their changes, so a quiet event among busy ones still fills its
 * page from what it changed. Else every event's shards, the filters and the scope applied on
 * top.
 */
async function updates(
  serving: Extract<ServingIndex, { kind: 'updates' }>,
  bounds: ReadBounds,
  scope: readonly number[] | undefined,
): Promise<IndexRead> {
  const range = { from: serving.from, to: serving.to };
  const eventId = await eventOf(serving);
  if (eventId === undefined && serving.typeId !== undefined) return nothing;
  const events = eventId !== undefined ? [eventId] : scope && scope.length <= MAX_SCOPE_SYNC_EVENTS ? scope : undefined;
  if (!events) return ticketUpdates(range, bounds);
  return ticketUpdates({ ...range, events }, bounds);
}
