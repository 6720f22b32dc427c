import { batchGet } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * The layout of an event's statistics shards (`TICKET_COUNTS#<id>#<shard>` / `STATS#<shard>`), created
 * with the event: what they hold and how a ticket change moves them is the list engine's
 * (shared/lists/ticket-stats.ts).
 *
 * Why 16, each its own partition key: a ticket moves the shard of its run of SHARD_RUN ids (`shardOf`).
 * An order's tickets have consecutive ids from their container's block and are issued in one transaction,
 * so they mostly share a shard and its counters move once for the order; the runs of every container's
 * blocks still spread the sales evenly over the shards. At an on-sale of 600 tickets (300 orders) a
 * second for one event that is at most 600 / 16 = 37.5 transactions a second per shard, under the ~50 one
 * item takes before transactions conflict, and the shard's partition (with the purchase counts the
 * ticket moves there, shared/lists/purchase-counts.ts) stays far below 1,000 write units a second.
 * Under `EVENT#<id>` they would add every sale's counter writes to the event's own partition.
 */
export const STATS_SHARDS = 16;

/** Consecutive ids that share a shard: an order of up to 8 whose ids start a run moves one shard, a larger one few. */
export const SHARD_RUN = 8;

/** The shard of `count` shards a ticket is counted in: its run of SHARD_RUN ids, so an order's tickets mostly share one. */
export const shardAmong = (ticketId: number, count: number): number => Math.floor(ticketId / SHARD_RUN) % count;

export const shardOf = (ticketId: number): number => shardAmong(ticketId, STATS_SHARDS);

/** A fresh shard, written when the event is created so map updates find `checkedIn`. */
export const emptyShard = (eventId: number, shard: number) => ({
  ...keys.eventStats(eventId, shard),
  entity: 'EventStats',
  sold: 0,
  checkedIn: {},
  listed: {},
});

/** Each event's sold tickets: the sum of its statistics shards' `sold`, all events in one batch read. */
export async function soldByEvent(eventIds: readonly number[]): Promise<Map<number, number>> {
  const unique = [...new Set(eventIds)];
  const shardKeys = unique.flatMap((eventId) =>
    Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
  );
  const sold = new Map(unique.map((id) => [id, 0]));
  const items = await batchGet(shardKeys, { projection: '#sold', names: { '#sold': 'sold' } });
  items.forEach((item, i) => {
    const eventId = unique[Math.floor(i / STATS_SHARDS)]!;
    sold.set(eventId, sold.get(eventId)! + Number(item?.sold ?? 0));
  });
  return sold;
}
