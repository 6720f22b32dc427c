import type { AdminPrincipal } from '../../auth/tokens.ts';
import { getCustomer, holderOfEmail } from '../../identity/data/customers.ts';
import { countStaffOrders, readOrder } from '../data/order-staff.ts';
import { readOrderCounts } from '../data/customer-order-counts.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { toStaffOrder, type StaffOrder } from '../domain/order-cancel.ts';
import type { Order, OrderStatus } from '../domain/order.ts';
import type { DisputeFilter } from '../domain/order-dispute.ts';
import { offsetPastWindow, PORTAL_OFFSET_WINDOW, tooSparse } from '../../portal/domain/portal-lists.ts';
import { NotFound } from '../../errors.ts';
import { type OrderWalkRead, walkCustomerOrders, walkDisputedOrders, walkStaffOrders } from '../../lists/orders.ts';
import { checkPaging, decodeSortCursor, encodeSortCursor } from '../../lists/portal.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import type { ListedOrder } from '../data/order-list-entries.ts';
import { codeKey } from '../domain/promo-code.ts';

/** The staff's order reads (`GET /orders`, `GET /orders/{id}`), within the caller's events: another event's order is 404. */

export type Caller = Pick<AdminPrincipal, 'id' | 'eventScope'>;

/** The order, when the caller's scope reaches its event (else 404, as for a missing one). */
export async function orderFor(caller: Caller, id: number): Promise<Order> {
  const order = await readOrder(id);
  if (!order || !inScope(caller.eventScope, order.eventId)) throw new NotFound('Order', id);
  return order;
}

/** `GET /orders/{id}`: the order with its tickets and the customer's name. */
export async function readStaffOrder(caller: Caller, id: number): Promise<StaffOrder> {
  const order = await orderFor(caller, id);
  const [tickets, customer] = await Promise.all([readTicketRecords(order.ticketIds), getCustomer(order.customerId)]);
  return toStaffOrder(order, tickets, customer);
}

export interface StaffOrderQuery {
  eventId?: number;
  status?: OrderStatus;
  customerId?: number;
  /** The customer whose login this is (resolved to their id; none: an empty page). */
  email?: string;
  /** ISO-8601 UTC, inclusive: the purchase instant (the lists' sort key). */
  from?: string;
  to?: string;
  /** Disputed orders only, whose dispute is still running (`open`) or decided (`closed`): their own lists. */
  dispute?: DisputeFilter;
  /** Orders priced with a code of this text, whatever its case: judged on the list entries (a code never changes). */
  promoCode?: string;
  limit: number;
  offset: number;
  cursor?: string;
}

export interface StaffOrderPage {
  totalCount: number;
  totalCountIsEstimate: boolean;
  limit: number;
  offset: number;
  items: StaffOrder[];
  next: string | null;
}

/** Both filters, or the one given. */
const both = <T>(a?: (value: T) => boolean, b?: (value: T) => boolean) =>
  a && b ? (value: T) => a(value) && b(value) : (a ?? b);

const emptyPage = (query: StaffOrderQuery): StaffOrderPage => ({
  totalCount: 0,
  totalCountIsEstimate: false,
  limit: query.limit,
  offset: query.offset,
  items: [],
  next: null,
});

/**
 * `GET /orders`, newest first (purchase instant, then id), walked by `next`. Which index serves it:
 * a customer (`customerId` or `email`): their orders (GSI1, or GSI2 with `eventId`), status and scope applied on top;
 * otherwise an event's orders (GSI3, or GSI4 for one status), the scope's events merged for a scoped caller without
 * `eventId`, every event's sharded lists (GSI5, GSI6 for a status) for an unscoped one; `dispute`: the disputed
 * orders' entries (GSI3 per event, GSI5 across events: lists/orders.ts `walkDisputedOrders`), no kept count. The page and one more are
 * read (at most PORTAL_READ_BUDGET index items: a customer's orders too sparse in status or scope is a 400, any list's
 * too sparse in `promoCode` too). `promoCode` is judged on the index items as read (the entries', or the status lists'
 * order items'), so only the orders kept are read. `totalCount` is exact from the kept counts without a purchase range
 * or a code (the staff's per event and status, the customer's per event); otherwise exact when the read reached the
 * end from the start, else flagged an estimate.
 */
export async function listStaffOrders(caller: Caller, query: StaffOrderQuery): Promise<StaffOrderPage> {
  checkPaging(query);
  if (query.offset + query.limit > PORTAL_OFFSET_WINDOW) throw offsetPastWindow();
  const scope = caller.eventScope;
  if (query.eventId !== undefined && !inScope(scope, query.eventId)) return emptyPage(query);
  let customerId = query.customerId;
  if (query.email !== undefined) {
    const holder = await holderOfEmail(query.email);
    if (holder === undefined || (customerId !== undefined && customerId !== holder)) return emptyPage(query);
    customerId = holder;
  }
  const eventIds = query.eventId !== undefined ? [query.eventId] : scope;
  if (eventIds && !eventIds.length) return emptyPage(query);
  const range = { from: query.from, to: query.to };
  const ranged = query.from !== undefined || query.to !== undefined;
  const after = query.cursor === undefined ? undefined : decodeSortCursor(query.cursor);
  const need = query.offset + query.limit + 1;
  const code = query.promoCode === undefined ? undefined : codeKey(query.promoCode);
  const withCode =
    code === undefined
      ? undefined
      : (listed: ListedOrder) => listed.promoCode !== undefined && codeKey(listed.promoCode) === code;

  let counted: Promise<number> | undefined;
  let read: OrderWalkRead;
  if (query.dispute !== undefined) {
    // The contract allows only eventId and a purchase range beside it (StaffOrderListQuery).
    read = await walkDisputedOrders({ eventIds, dispute: query.dispute, ...range }, { need, after });
  } else if (customerId !== undefined) {
    // The scope is judged on the list entries as read (an order's event never changes), the status on the orders.
    const inScopeListed =
      scope && query.eventId === undefined ? (listed: ListedOrder) => inScope(scope, listed.eventId) : undefined;
    const keepListed = both(inScopeListed, withCode);
    const keep = query.status !== undefined ? (order: Order) => order.status === query.status : undefined;
    if (!ranged && query.status === undefined && code === undefined) {
      const id = customerId;
      counted = readOrderCounts(id).then((counts) =>
        eventIds ? eventIds.reduce((sum, eventId) => sum + (counts.byEvent[eventId] ?? 0), 0) : counts.total,
      );
    }
    read = await walkCustomerOrders(customerId, query.eventId === undefined ? undefined : [query.eventId], range, {
      need,
      after,
      keepListed,
      keep,
    });
    if (!read.complete && read.orders.length < need)
      throw tooSparse(
        code !== undefined ? 'promoCode' : query.status !== undefined ? 'status' : 'customerId',
        'add eventId or a purchase range (fromPurchaseDate, toPurchaseDate)',
      );
  } else {
    if (!ranged && code === undefined) counted = countStaffOrders(eventIds, query.status);
    read = await walkStaffOrders({ eventIds, status: query.status, ...range }, { need, after, keepListed: withCode });
    if (code !== undefined && !read.complete && read.orders.length < need)
      throw tooSparse('promoCode', 'add eventId, status or a purchase range (fromPurchaseDate, toPurchaseDate)');
  }
  counted?.catch(() => undefined);
  const page = read.orders.slice(query.offset, query.offset + query.limit);
  const exact = counted ? await counted : undefined;
  const readAll = read.complete && after === undefined;
  return {
    totalCount: exact ?? (readAll ? read.orders.length : query.offset + read.orders.length),
    totalCountIsEstimate: exact === undefined && !readAll,
    limit: query.limit,
    offset: query.offset,
    items: page.map(({ order }) => toStaffOrder(order)),
    next: read.orders.length > query.offset + query.limit ? encodeSortCursor(page.at(-1)!.sort) : null,
  };
}
