import type { Order } from '../selling/domain/order.ts';
import { PORTAL_READ_BUDGET } from '../portal/domain/portal-lists.ts';
import type { DisputeFilter } from '../selling/domain/order-dispute.ts';
import { batchGet } from '../data/client.ts';
import { ORDER_SHARDS } from '../data/customer-keys.ts';
import { INDEX_SHARDS, keys, shardsOf } from '../data/keys.ts';
import { disputedOrderId } from '../selling/data/order-disputes.ts';
import { type ListedOrder, listedOrder, listedOrderId } from '../selling/data/order-list-entries.ts';
import { fromItem } from '../selling/data/order-items.ts';
import { walkMerged, type WalkOptions, type WalkSource } from './merged-walk.ts';

/**
 * The door to the order lists, newest first by purchase instant (`<purchasedDate>#<id:10>`), walked
 * from after a cursor: the staff's (`GET /orders`: an event's orders, or in one status; every event's
 * through the ORDER_SHARDS shards) and a customer's (`GET /my-account/orders` and the staff's list by
 * customer: all their orders, or one event's). The index partitions are keys.ts's; the walk is the
 * merged one (merged-walk.ts), within PORTAL_READ_BUDGET index items. Their totals are the kept
 * counts' (shared/selling/data/order-staff.ts, orders.ts), read by the use cases.
 */

/** ISO-8601 UTC purchase instants, inclusive, either open. */
export interface PurchaseRange {
  from?: string;
  to?: string;
}

export interface OrderWalk {
  /** Orders kept before the walk stops (the page's offset, limit and one more). */
  need: number;
  /** The sort key after which the walk resumes (the cursor's). */
  after?: string;
  /**
   * Whether an order is kept, judged on what its list entry holds (its event and types, which never change), before
   * any order is read: a filter on them reads only the orders it keeps. Undefined: all.
   */
  keepListed?: (listed: ListedOrder) => boolean;
  /** Whether a read order is kept, judged on the whole order (a filter on what moves, its status). Undefined: all. */
  keep?: (order: Order) => boolean;
}

export interface OrderWalkRead {
  orders: { sort: string; order: Order }[];
  /** Every partition was read to its end: nothing more matches. */
  complete: boolean;
  /** Index items read. */
  itemsRead: number;
}

/** Which staff list a filter reads: one partition per event, or every event's (the sharded lists). */
export interface StaffOrderPartitions extends PurchaseRange {
  /** The events read (each its own partition); undefined: every event. */
  eventIds?: readonly number[];
  status?: string;
}

const bounds = ({ from, to }: PurchaseRange) => ({
  low: from === undefined ? undefined : keys.timeSortBound(from, 'first'),
  high: to === undefined ? undefined : keys.timeSortBound(to, 'last'),
});

/**
 * An order list's index items, its orders' entries (order-list-entries.ts: the list entry, or in a status list the
 * status entry), read as their orders: a page's orders are one BatchGetItem (an entry whose order is gone is left
 * out). `keepListed` judges the entry as read; `keep` the order, after its read. A status list keeps an order only in
 * the status it lists: its entry may lag the order for the moment between the order's transaction and the entry's
 * write, and the walk then goes on past it (never a short page), as the order is listed under its new status.
 */
function ordersOf(
  { keepListed, keep }: Pick<OrderWalk, 'keepListed' | 'keep'>,
  status: string | undefined,
): Pick<WalkOptions, 'keep' | 'confirm' | 'confirmFilters'> {
  const kept = (order: Order) => (status === undefined || order.status === status) && (!keep || keep(order));
  return {
    keep: keepListed && ((item: Record<string, unknown>) => keepListed(listedOrder(item))),
    // A lagging entry is rare (a write's moment): the walk reads on past it without reading in chunks for it.
    confirmFilters: keep !== undefined,
    confirm: async (batch) => {
      const orders = await batchGet(batch.map(({ item }) => keys.order(listedOrderId(item))));
      return batch.flatMap((entry, i) => {
        const order = orders[i];
        return order && kept(fromItem(order)) ? [{ sort: entry.sort, item: order }] : [];
      });
    },
  };
}

async function walkOrders(
  sources: WalkSource[],
  walk: OrderWalk & Pick<WalkOptions, 'confirm'>,
  status?: string,
): Promise<OrderWalkRead> {
  const read = await walkMerged(sources, {
    need: walk.need,
    budget: PORTAL_READ_BUDGET,
    descending: true,
    after: walk.after,
    ...(walk.confirm ? { confirm: walk.confirm } : ordersOf(walk, status)),
  });
  return {
    orders: read.items.map(({ sort, item }) => ({ sort, order: fromItem(item) })),
    complete: read.complete,
    itemsRead: read.itemsRead,
  };
}

/** A customer's orders: all of them (GSI1), or those of the named events merged (GSI2, one partition each). */
export function walkCustomerOrders(
  customerId: number,
  eventIds: readonly number[] | undefined,
  range: PurchaseRange,
  walk: OrderWalk,
): Promise<OrderWalkRead> {
  const partitions = eventIds?.length
    ? eventIds.map((eventId) => keys.customerEventOrders(customerId, eventId))
    : [keys.customerOrders(customerId)];
  return walkOrders(
    partitions.map((partition) => ({ partition, ...bounds(range) })),
    walk,
  );
}

/** The staff's lists: each event's shards (GSI3, GSI4 in a status), or every event's shards (GSI5, GSI6) merged. */
export function walkStaffOrders(filter: StaffOrderPartitions, walk: OrderWalk): Promise<OrderWalkRead> {
  const { eventIds, status } = filter;
  const partitions = eventIds
    ? eventIds.flatMap((eventId) =>
        status === undefined
          ? shardsOf(INDEX_SHARDS.eventOrders).map((shard) => keys.eventOrders(eventId, shard))
          : shardsOf(INDEX_SHARDS.eventStatusOrders).map((shard) => keys.eventStatusOrders(eventId, status, shard)),
      )
    : Array.from({ length: ORDER_SHARDS }, (_, shard) =>
        status === undefined ? keys.allOrders(shard) : keys.statusOrders(status, shard),
      );
  return walkOrders(
    partitions.map((partition) => ({ partition, ...bounds(filter) })),
    walk,
    status,
  );
}

/**
 * The disputed orders (`GET /orders?dispute=open|closed`): the dispute entries of each event's partition (GSI3), or of
 * every event's (GSI5), merged newest first as the other lists, each batch of entries read as its orders (one
 * BatchGetItem; an entry whose order is gone is left out).
 */
export function walkDisputedOrders(
  filter: PurchaseRange & { eventIds?: readonly number[]; dispute: DisputeFilter },
  walk: Omit<OrderWalk, 'keep'>,
): Promise<OrderWalkRead> {
  const partitions = filter.eventIds
    ? filter.eventIds.map((eventId) => keys.eventDisputedOrders(eventId, filter.dispute))
    : [keys.disputedOrders(filter.dispute)];
  return walkOrders(
    partitions.map((partition) => ({ partition, ...bounds(filter) })),
    {
      ...walk,
      confirm: async (batch) => {
        const orders = await batchGet(batch.map(({ item }) => keys.order(disputedOrderId(item))));
        return batch.flatMap((entry, i) => (orders[i] ? [{ sort: entry.sort, item: orders[i] }] : []));
      },
    },
  );
}

/**
 * Every event's orders in one status purchased at or before `before`, oldest first (GSI6's shards merged, their
 * status entries read as their orders, each judged in the status as read): at most `need` that `keep` keeps, within
 * `budget` index items, each Query with a Limit (the stuck orders' sweep,
 * shared/selling/use-cases/sweep-stuck-orders.ts). Never a partition read to its end.
 */
export async function oldestInStatus(
  status: string,
  before: string,
  { need, budget, keep }: { need: number; budget: number; keep: (order: Order) => boolean },
): Promise<Order[]> {
  const high = keys.timeSortBound(before, 'last');
  const read = await walkMerged(
    Array.from({ length: ORDER_SHARDS }, (_, shard) => ({ partition: keys.statusOrders(status, shard), high })),
    { need, budget, ...ordersOf({ keep }, status) },
  );
  return read.items.map(({ item }) => fromItem(item));
}
