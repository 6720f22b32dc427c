import { sortableId, table, type Key } from './key-parts.ts';

/**
 * The declarations of an event's counts that every sale moves, part of `keys` (keys.ts) and held to
 * the same rule: no key template anywhere else. Each shard is a partition of its own
 * (`TICKET_COUNTS#<eventId>#<shard>`, shared/tickets/data/stats-shards.ts says why), not the event's: a ticket is
 * counted in its id's shard (stats-shards.ts `shardOf`), its statistics shard and purchase counts together.
 */
const countsPartition = (eventId: number, shard: number) => `TICKET_COUNTS#${eventId}#${shard}`;
/** Whose purchase counts: an event's, or one of its ticket types' (`typeId`). */
export type PurchaseHolder = { eventId: number; typeId?: number };
const boughtKey = ({ eventId, typeId }: PurchaseHolder, shard: number, rest: string): Key => ({
  PK: countsPartition(eventId, shard),
  SK: typeId === undefined ? `BOUGHT#${rest}` : `BOUGHT#type#${sortableId(typeId)}#${rest}`,
});

export const countKeys = {
  /**
   * One of an event's statistics shards (shared/lists/ticket-stats.ts), each in its own partition (`ticketCounts`):
   * a sale moves one shard, so a rush's counter writes are spread over STATS_SHARDS partition keys, not the event's.
   */
  eventStats: (eventId: number, shard: number): Key => ({ PK: countsPartition(eventId, shard), SK: `STATS#${shard}` }),
  /**
   * One shard's partition of an event's list positions (`listPosition`, shared/lists/list-positions.ts): a ticket's
   * blocks are counted in its id's shard, apart from its counts, so each partition stays under 1,000 write units a second.
   */
  eventPositions: (eventId: number, shard: number) => table(`TICKET_POSITIONS#${eventId}#${shard}`),
  /** One shard's partition of an event's counts (its statistics shard and purchase counts), read by prefix. */
  ticketCounts: (eventId: number, shard: number) => table(countsPartition(eventId, shard)),
  /**
   * One shard of an event's purchase counts, or of one of its types' (shared/lists/purchase-counts.ts): a month's
   * (per day), an hour's (per minute), a minute's (per second); a type's under `BOUGHT#type#<typeId:10>#`. In the
   * shard's partition (`ticketCounts`), beside its statistics shard.
   */
  purchaseMonth: (holder: PurchaseHolder, shard: number, month: string): Key =>
    boughtKey(holder, shard, `month#${month}`),
  purchaseHour: (holder: PurchaseHolder, shard: number, hour: string): Key => boughtKey(holder, shard, `hour#${hour}`),
  purchaseMinute: (holder: PurchaseHolder, shard: number, minute: string): Key =>
    boughtKey(holder, shard, `minute#${minute}`),
  purchaseMonthsPrefix: (holder: PurchaseHolder) => boughtKey(holder, 0, 'month#').SK,
  /** The hour counts of one day (`2026-11-26`). */
  purchaseHoursPrefix: (holder: PurchaseHolder, day: string) => boughtKey(holder, 0, `hour#${day}T`).SK,
};
