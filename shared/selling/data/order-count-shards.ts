import { keys } from '../../data/keys.ts';
import type { Key } from '../../data/key-parts.ts';

/**
 * Where the staff's order counts live (order-status.ts moves them, order-staff.ts sums them). Each order moves its
 * counts three times (created `awaiting_payment`, then `pending`, then `active`), each time in the order's own
 * transaction, and a transaction conflicts with every other on the same item (the ceiling taken: 50 a second an item).
 *
 * - **An event's count** is ORDER_COUNT_SHARDS items, `EVENT_ORDER_COUNTS#<eventId>#<shard>`, the shard the order id's
 *   remainder: every move of one order lands on the same shard, so a shard's `s#<status>` never goes below zero and
 *   each shard's counts are those of its own orders. At 300 paid orders a second for one event: 900 transactions a
 *   second over 40 shards, 22.5 each (45 write units a second: 2 a transactional write of a ~100-byte item).
 * - **Every event's count** (an unscoped `GET /orders`) is ORDER_COUNT_GROUPS × ORDER_COUNT_SHARDS items,
 *   `ALL_ORDER_COUNTS#<group>#<shard>`: the group from the event id (eventId mod 4), the shard as the event's. No item
 *   is written by the sales of every event: a group's items only by its events' sales, so one event on sale conflicts
 *   with the others only within its group. Two events at the target in one group: 1,800 transactions a second over 40
 *   items, 45 each (within 50); one per group: 22.5. The stage as a whole takes 4 groups × 40 items × 50 / 3 moves ≈
 *   2,660 orders a second when its selling events spread over the groups; one group 660.
 *
 * Read by summing, strongly consistent (exact once the move's write answered): an event's 40 items, every event's 160
 * (one BatchGetItem per 100 keys, sent together). Fewer shards were cheaper to read but would put two events of one
 * group at the target past the ceiling.
 */
export const ORDER_COUNT_SHARDS = 40;
export const ORDER_COUNT_GROUPS = 4;

const shardOf = (orderId: number) => orderId % ORDER_COUNT_SHARDS;
const groupOf = (eventId: number) => eventId % ORDER_COUNT_GROUPS;
const everyShard = Array.from({ length: ORDER_COUNT_SHARDS }, (_, shard) => shard);

/** The two items an order's count moves write: its event's shard and its group's. */
export const orderCountItems = (order: { id: number; eventId: number }): Key[] => [
  keys.eventOrderCounts(order.eventId, shardOf(order.id)),
  keys.allOrderCounts(groupOf(order.eventId), shardOf(order.id)),
];

/** Every shard of an event's count. */
export const eventOrderCountItems = (eventId: number): Key[] =>
  everyShard.map((shard) => keys.eventOrderCounts(eventId, shard));

/** Every shard of every event's count. */
export const allOrderCountItems = (): Key[] =>
  Array.from({ length: ORDER_COUNT_GROUPS }, (_, group) =>
    everyShard.map((shard) => keys.allOrderCounts(group, shard)),
  ).flat();
