import type { GlobalIndexName } from './table-schema.ts';
import type { Partition } from './key-conditions.ts';

/** The parts every key declaration (keys.ts, customer-keys.ts) is built from. */
export type Key = { PK: string; SK: string };

export const table = (value: string): Partition => ({ value });
export const on = (index: GlobalIndexName, value: string): Partition => ({ index, value });

/** Zero-padded so that ids sort numerically inside a string sort key. */
export const sortableId = (id: number): string => String(id).padStart(10, '0');

/** The sort key of every ticket list: id order; `{ after: ticketSort(id) }` resumes after a cursor. */
export const ticketSort = (id: number) => `TICKET#${sortableId(id)}`;
/** The sort key of the lists by purchase time (an event's, a type's, a customer's orders): the instant, then the id. */
export const purchaseSort = (purchasedDate: string, id: number) => `${purchasedDate}#${sortableId(id)}`;
export const lower = (text: string) => text.trim().toLowerCase();

/**
 * The write shards of the index partition keys an on-sale makes hot: each item is written to shard `id % count` of
 * its list (so its shard never moves), and every read of the list merges the shards in the list's order
 * (shared/lists/merged-walk.ts). At the target (two events on one stage, each 300 paid orders of two tickets a
 * second: 600 new tickets a second), a ticket's entry costs 2 write units per index key it is on (a transactional
 * write under 1 KB); an order's keys are the heat bench's figures (bin/bench/results.md); sized so that each shard takes at most
 * 600 of DynamoDB's 1,000 write units a second per partition key, the fewest shards that leave that margin (a first
 * page Queries each shard; shared/lists/README.md "At an on-sale").
 */
export const INDEX_SHARDS = {
  /** GSI3 `ALL_TICKETS`: both events' tickets, 1,200 × 2 = 2,400 WU/s → 600 a shard. */
  allTickets: 4,
  /** GSI1 `EVENT_TICKETS#<event>`, `TEAM_TICKETS#<event>#<team>` (one team), GSI2 `STATE_TICKETS#<event>#<state>`, GSI5 `EVENT_PURCHASES#<event>`: 600 × 2 = 1,200 → 600. */
  eventTickets: 2,
  /**
   * GSI3 `EVENT_ORDERS#<event>`: on the order's list entry, written once at its creation (order-list-entries.ts), so
   * 300 × 2 = 600 WU/s: one partition (1,800 if the order item itself were listed, rewritten by each status move).
   */
  eventOrders: 1,
  /** GSI4 `EVENT_STATUS_ORDERS#<event>#<status>`: `awaiting_payment` and `pending` 1,200 WU/s each (an order moves in and out) → 600. */
  eventStatusOrders: 2,
} as const;

/** Shards 0 … count − 1. */
export const shardsOf = (count: number): number[] => Array.from({ length: count }, (_, shard) => shard);
