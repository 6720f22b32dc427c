import {
  readOrderCounts,
  readOrders,
  readTicketsAndCounts,
  type OrderCounts,
  type OrderPartition,
} from '../../data/orders.ts';
import { newestFirst, toOrderEntry, type Order, type OrderEntry, type OrderIncludes } from '../../domain/order.ts';
import type { Page } from '../../domain/paging.ts';
import { ValidationError } from '../../errors.ts';

/**
 * `GET /my-account/orders`: only the caller's orders, newest first. Served by GSI1 (all
 * their orders) or GSI2 per named event (merged), with the purchase-date range in the key
 * condition; `ticketType` is applied on top of what is read.
 *
 * Bounds: a request reads at most MAX_ORDERS_READ orders, split evenly over the
 * partitions it reads. Without a date range and with no filter, `event` only, or a
 * single `ticketType` only, `totalCount` comes from the kept counts and a page reads only
 * the orders up to it (offset + limit). Otherwise the partitions are read to their end
 * and `totalCount` is the exact number of matches. A page the bound would leave short or
 * inexact is a 400 naming the narrower query (a purchase-date range, an event), never a
 * page that silently leaves orders out.
 */
export const MAX_ORDERS_READ = 1000;

export interface OrderListQuery {
  events?: number[];
  ticketTypes?: number[];
  /** ISO-8601 UTC, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
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

export async function listCustomerOrders(customerId: number, query: OrderListQuery): Promise<Page<OrderEntry>> {
  const partitions: OrderPartition[] = query.events?.length
    ? [...new Set(query.events)].map((eventId) => ({ customerId, eventId }))
    : [{ customerId }];
  const types = query.ticketTypes?.length ? new Set(query.ticketTypes) : undefined;
  const keep = types ? (order: Order) => order.typeIds.some((typeId) => types.has(typeId)) : undefined;
  const counted = countOf(query);
  const budget = Math.ceil(MAX_ORDERS_READ / partitions.length);
  const enough = counted ? query.offset + query.limit : undefined;
  // Without tickets to read, the counts are read alongside the Query instead of in the tickets' batch.
  const countsApart = counted && !query.include.tickets ? readOrderCounts(customerId) : undefined;
  countsApart?.catch(() => undefined); // awaited below; handled here in case a Query fails first
  const reads = await Promise.all(
    partitions.map((partition) => readOrders(partition, { from: query.from, to: query.to }, { budget, enough, keep })),
  );
  // A partition that stopped at its share of the bound, neither at its end nor holding the page: the answer would be short.
  if (reads.some((read) => !read.complete && (enough === undefined || read.orders.length < enough)))
    throw tooManyOrders();

  const matches = reads.flatMap((read) => read.orders).sort(newestFirst);
  const shown = matches.slice(query.offset, query.offset + query.limit);
  const ticketIds = query.include.tickets ? shown.flatMap((order) => order.ticketIds) : [];
  const { tickets, counts } = query.include.tickets
    ? await readTicketsAndCounts(customerId, ticketIds, !!counted)
    : { tickets: new Map(), counts: await countsApart };
  return {
    totalCount: counted && counts ? counted(counts) : matches.length,
    limit: query.limit,
    offset: query.offset,
    items: shown.map((order) => toOrderEntry(order, query.include, tickets)),
  };
}

function tooManyOrders(): ValidationError {
  return new ValidationError(
    `More than ${MAX_ORDERS_READ} orders would be read for this page: narrow it with fromPurchaseDate/toPurchaseDate or event.`,
    [{ path: 'query.fromPurchaseDate', message: `more than ${MAX_ORDERS_READ} orders to read` }],
  );
}
