import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { WALK_UP_CUSTOMER, type Order } from '../domain/order.ts';
import { batchGet, db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { fromItem, orderItem } from './order-items.ts';

/**
 * An order's two list entries, beside it in its partition; the order item itself is in no index, so its writes (its
 * creation, status moves, payments, issued tickets) cost 2 units in their transactions, not 6 or 10:
 * - its list entry (`ORDER#<id>` / `ORDER_LISTS`, keys.ts `orderListEntry`): its places in the lists its status does
 *   not key, a customer's (GSI1), a customer's of one event (GSI2), an event's (GSI3) and every order's (GSI5),
 *   written once;
 * - its status entry (`ORDER#<id>` / `ORDER_STATUS`, keys.ts `orderStatusEntry`): its places in the status-keyed
 *   lists, an event's (GSI4) and every event's (GSI6), moved with each status.
 * Both are plain writes after the order's transaction (`orderEntriesCaughtUp`), by its writer and again by the table
 * stream's consumer (shared/webhooks/use-cases/jobs.ts), which writes only what a writer stopped before writing: a
 * list shows an order once either has run. The lists read the entries, then the page's orders (shared/lists/orders.ts),
 * and a status list judges each order's status as read (an entry may lag its order for that moment).
 */
const LIST_ENTITY = 'OrderListEntry';
const STATUS_ENTITY = 'OrderStatusEntry';

/** What never changes of an order, on both entries for the lists' filters (`ListedOrder`). */
const listedFacts = (order: Order) => ({
  orderId: order.id,
  eventId: order.eventId,
  typeIds: order.typeIds,
  ...(order.promo ? { promoCode: order.promo.code } : {}),
});

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
  ...listedFacts(order),
});

/** The status entry of an order as it is: its status's places, and the moves it follows (`statusMoves`). */
export const orderStatusEntryItem = (order: Order) => ({
  ...keys.orderStatusEntry(order.id),
  ...keys.orderStatusIndexes(order),
  entity: STATUS_ENTITY,
  ...listedFacts(order),
  status: order.status,
  statusMoves: order.statusMoves ?? 0,
});

const movesOf = (item: Record<string, unknown> | undefined) => Number(item?.statusMoves ?? 0);

/**
 * The orders' entries caught up with the orders as stored (one consistent BatchGetItem of each order and its two
 * entries): a list entry put where none is, a status entry put where it follows fewer moves than its order (or is
 * missing). Written as the order is now, whatever change called: a late, repeated or replayed call writes nothing once
 * the entries are caught up, and each Put is conditional on the entry as it must be (none; fewer moves), so of two
 * callers at once the later order wins and an entry never moves back (a lost condition is another caller's newer
 * write: nothing to retry). Its writers call it once their transaction answered; the stream's consumer for every
 * order record, for a writer that stopped in between.
 */
export async function orderEntriesCaughtUp(orderIds: readonly number[]): Promise<void> {
  const ids = [...new Set(orderIds)];
  if (!ids.length) return;
  const read = await batchGet(
    ids.flatMap((id) => [keys.order(id), keys.orderListEntry(id), keys.orderStatusEntry(id)]),
    { consistent: true },
  );
  const puts = ids.flatMap((_, i) => {
    const [stored, listEntry, statusEntry] = read.slice(3 * i, 3 * i + 3);
    if (!stored) return [];
    const order = fromItem(stored);
    const moves = order.statusMoves ?? 0;
    return [
      ...(listEntry ? [] : [putIf(orderListEntryItem(order), 'attribute_not_exists(PK)')]),
      ...(statusEntry && movesOf(statusEntry) >= moves && statusEntry.status === order.status
        ? []
        : [putIf(orderStatusEntryItem(order), 'attribute_not_exists(PK) OR statusMoves <= :moves', moves)]),
    ];
  });
  await Promise.all(puts.map((put) => put()));
}

/**
 * A new order's entries, by the writer whose transaction has just created it (its item put where none was): as
 * `orderEntriesCaughtUp` writes them, without reading the order back. The order as stored is the item it put (read
 * back through the same `fromItem`), and its entries can only be the stream consumer's, from that item or from a
 * later move of its status; the same conditions keep either (the list entry put where none is, the status entry
 * where it follows no more moves).
 */
export async function newOrderEntriesWritten(order: Order): Promise<void> {
  const stored = fromItem(orderItem(order));
  await Promise.all([
    putIf(orderListEntryItem(stored), 'attribute_not_exists(PK)')(),
    putIf(orderStatusEntryItem(stored), 'attribute_not_exists(PK) OR statusMoves <= :moves', stored.statusMoves ?? 0)(),
  ]);
}

/** A conditional Put whose lost condition is another writer's newer entry: nothing to do. */
const putIf =
  (Item: Record<string, unknown>, ConditionExpression: string, moves?: number) => async (): Promise<void> => {
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item,
          ConditionExpression,
          ...(moves === undefined ? {} : { ExpressionAttributeValues: { ':moves': moves } }),
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  };

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
