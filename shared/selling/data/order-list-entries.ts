import { WALK_UP_CUSTOMER, type Order } from '../domain/order.ts';
import { keys } from '../../data/keys.ts';

/**
 * An order's list entry (`ORDER#<id>` / `ORDER_LISTS`, keys.ts `orderListEntry`): its places in the lists its status
 * does not key, a customer's (GSI1), a customer's of one event (GSI2), an event's (GSI3) and every order's (GSI5),
 * written once in the order's creation (orders.ts `newOrderActions`) and never again. The order item is then in the
 * status-keyed GSI4 and GSI6 only, so its status moves, payments and issued tickets rewrite two index entries, not
 * six. The lists read the entries, then the page's orders (shared/lists/orders.ts).
 */
const LIST_ENTITY = 'OrderListEntry';

/**
 * The entry of a new order: its list places, and what never changes of it (event, types, its promo code as its event
 * spells it) for the lists' filters. A
 * walk-up sale's has no customer's lists: no account reads them (a customer filter names an account), and one
 * customer's partitions would be index partitions every event's desk sales write.
 */
export const orderListEntryItem = (order: Order) => ({
  ...keys.orderListEntry(order.id),
  ...(order.customerId === WALK_UP_CUSTOMER
    ? {}
    : keys.orderIndexes(order.customerId, order.eventId, order.purchasedDate, order.id)),
  ...keys.orderStaffIndexes(order),
  entity: LIST_ENTITY,
  orderId: order.id,
  eventId: order.eventId,
  typeIds: order.typeIds,
  ...(order.promo ? { promoCode: order.promo.code } : {}),
});

/**
 * What an order's list entry tells of it: what never changes once it is made, what a list may filter on unread
 * (`promoCode`: its code as its event spells it, none without one; a filter matches it in any case).
 */
export type ListedOrder = Pick<Order, 'eventId' | 'typeIds'> & { promoCode?: string };

/** The listed facts of an order list's index item (an entry, or the order item itself, whose code is in `promo`). */
export function listedOrder(item: Record<string, unknown>): ListedOrder {
  const code = item.promoCode ?? (item.promo as { code?: unknown } | undefined)?.code;
  return {
    eventId: Number(item.eventId),
    typeIds: (item.typeIds as number[] | undefined) ?? [],
    ...(typeof code === 'string' ? { promoCode: code } : {}),
  };
}

/** The order a list entry names. */
export const listedOrderId = (entry: Record<string, unknown>): number => Number(entry.orderId);
