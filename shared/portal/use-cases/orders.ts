import { readOrderCounts, readTicketsAndCounts, type OrderCounts } from '../../selling/data/customer-order-counts.ts';
import { walkCustomerOrders } from '../../lists/orders.ts';
import { decodeSortCursor, encodeSortCursor, checkPaging } from '../../lists/portal.ts';
import { toOrderEntry, type OrderEntry, type OrderIncludes } from '../../selling/domain/order-entry.ts';
import { offsetPastWindow, PORTAL_OFFSET_WINDOW, tooSparse } from '../domain/portal-lists.ts';
import type { CursorPage } from './catalogue.ts';

/**
 * `GET /my-account/orders`: only the caller's orders, newest first, at any number. Served by
 * GSI1 (all their orders) or GSI2 per named event, merged (shared/lists/orders.ts), with the
 * purchase-date range in the key condition, from the start or after `_cursor`, until the
 * page and one more order are found; `ticketType` is applied on top of what is read (at
 * most PORTAL_READ_BUDGET orders a page: a page it cannot fill is a 400 naming the narrower
 * query, never a short page). `_offset` + `_limit` stay within PORTAL_OFFSET_WINDOW.
 * Without a date range and with no filter, `event` only, or a single `ticketType` only,
 * `totalCount` comes from the kept counts (exact on every page); otherwise a read that
 * reached the end from the start is exact, anything else the matches read so far, flagged
 * `totalCountIsEstimate`.
 */
export interface OrderListQuery {
  events?: number[];
  ticketTypes?: number[];
  /** ISO-8601 UTC, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
  /** The `next` of the previous page (then `offset` is 0). */
  cursor?: string;
  include: OrderIncludes;
}

/** Which kept count answers `totalCount` for this query, if one does. */
function countOf(query: OrderListQuery): ((counts: OrderCounts) => number) | undefined {
  if (query.from !== undefined || query.to !== undefined) return undefined;
  const types = [...new Set(query.ticketTypes ?? [])];
  const events = [...new Set(query.events ?? [])];
  if (!types.length && !events.length) return (counts) => counts.total;
  if (!types.length) return (counts) => events.reduce((sum, id) => sum + (counts.byEvent[id] ?? 0), 0);
  // Per-type counts are of orders holding the type: summing several would count an order holding two of them twice.
  if (!events.length && types.length === 1) return (counts) => counts.byType[types[0]!] ?? 0;
  return undefined;
}

export async function listCustomerOrders(customerId: number, query: OrderListQuery): Promise<CursorPage<OrderEntry>> {
  checkPaging(query);
  if (query.offset + query.limit > PORTAL_OFFSET_WINDOW) throw offsetPastWindow();
  const after = query.cursor === undefined ? undefined : decodeSortCursor(query.cursor);
  const range = { from: query.from, to: query.to };
  const events = query.events?.length ? [...new Set(query.events)] : undefined;
  const types = query.ticketTypes?.length ? new Set(query.ticketTypes) : undefined;
  const counted = countOf(query);
  // Without tickets to read, the counts are read alongside the Query instead of in the tickets' batch.
  const countsApart = counted && !query.include.tickets ? readOrderCounts(customerId) : undefined;
  countsApart?.catch(() => undefined); // awaited below; handled here in case a Query fails first
  const need = query.offset + query.limit + 1;
  const read = await walkCustomerOrders(customerId, events, range, {
    need,
    after,
    keepListed: types && ((listed) => listed.typeIds.some((typeId) => types.has(typeId))),
  });
  if (!read.complete && read.orders.length < need)
    throw tooSparse('ticketType', 'add event or a purchase-date range (fromPurchaseDate, toPurchaseDate)');

  const page = read.orders.slice(query.offset, query.offset + query.limit);
  const shown = page.map(({ order }) => order);
  const ticketIds = query.include.tickets ? shown.flatMap((order) => order.ticketIds) : [];
  const { tickets, counts } = query.include.tickets
    ? await readTicketsAndCounts(customerId, ticketIds, !!counted)
    : { tickets: new Map(), counts: await countsApart };
  const exact = counted && counts ? counted(counts) : undefined;
  return {
    totalCount: exact ?? read.orders.length,
    totalCountIsEstimate: exact === undefined && (!read.complete || after !== undefined),
    limit: query.limit,
    offset: query.offset,
    items: shown.map((order) => toOrderEntry(order, query.include, tickets)),
    next: read.orders.length > query.offset + query.limit ? encodeSortCursor(page.at(-1)!.sort) : null,
    itemsRead: read.itemsRead,
  };
}
