import { INDEX_SHARDS, keys, shardsOf } from '../data/keys.ts';
import type { Partition, SortCondition } from '../data/key-conditions.ts';
import { listedRecords, listedTicketId } from '../tickets/data/ticket-records.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import type { PartRead, ReadBounds } from './merged-read.ts';
import { walkMerged } from './merged-walk.ts';
import type { ListKeys } from './ticket-list-plan.ts';

/**
 * The ticket lists an on-sale writes hottest are write-sharded by ticket id (an event's, a team's, a state's, the
 * list across events: shared/data/key-parts.ts INDEX_SHARDS, where their arithmetic is): each list is its
 * partitions here, and a read of one merges them in id order (merged-walk.ts, each shard asked its share of the
 * page), so a list reads as one partition did, in the same order, by the same cursors and kept positions.
 */
const eventShards = shardsOf(INDEX_SHARDS.eventTickets);

/** Each list as the partitions it is read from (one for a list not sharded). */
export const listShards: ListKeys<Partition[]> = {
  eventTickets: (eventId) => eventShards.map((shard) => keys.eventTickets(eventId, shard)),
  teamTickets: (eventId, team) => eventShards.map((shard) => keys.teamTickets(eventId, team, shard)),
  typeTickets: (typeId) => [keys.typeTickets(typeId)],
  stateTickets: (eventId, state) => eventShards.map((shard) => keys.stateTickets(eventId, state, shard)),
  accessTickets: (eventId) => [keys.accessTickets(eventId)],
  allTickets: shardsOf(INDEX_SHARDS.allTickets).map((shard) => keys.allTickets(shard)),
};

export interface ShardsRead {
  /** Kept items, in list order. */
  matches: Record<string, unknown>[];
  /** Every shard was read to its end. */
  exhausted: boolean;
  /** The last id judged (every shard's items up to it were), or `from` when none was. */
  lastId: number;
  /** Index items read. */
  read: number;
}

/**
 * A list's shards in id order (highest first when `descending`) from past `from` (exclusive) through `to`
 * (inclusive), until `need` items pass `keep`, every shard's end, or `budget` items read.
 */
export async function readShards(
  shards: readonly Partition[],
  bounds: {
    from: number | undefined;
    to?: number;
    descending: boolean;
    need: number;
    budget: number;
    /** What is read of each item (undefined: all of it). */
    projection?: string;
  },
  keep: (item: Record<string, unknown>) => boolean,
): Promise<ShardsRead> {
  const { from, to, descending, need, budget, projection } = bounds;
  const past = from === undefined ? undefined : keys.ticketSort(descending ? from - 1 : from + 1);
  const through = to === undefined ? undefined : keys.ticketSort(to);
  const [low, high] = descending ? [through, past] : [past, through];
  const walk = await walkMerged(
    shards.map((partition) => ({
      partition,
      low,
      high,
      ...(projection ? { projection: { expression: projection, names: {} } } : {}),
    })),
    { need, budget, descending, evenly: true, keep },
  );
  const lastId = walk.lastSort === undefined ? (from ?? (descending ? Infinity : 0)) : Number(walk.lastSort.slice(-10));
  return { matches: walk.items.map(({ item }) => item), exhausted: walk.complete, lastId, read: walk.itemsRead };
}

/**
 * `GET /ticket`'s read of a list's shards within a sort range (an event's by id, by purchase time), from after
 * `after`, merged: each batch of entries read as its records (one BatchGetItem; a ticket deleted meanwhile is left
 * out), until `need` records pass `accept`, the shards' end, or `budget` entries; one partition's read answered alike.
 */
export async function readShardRange(
  shards: readonly Partition[],
  range: SortCondition | undefined,
  { after, need, budget, accept }: ReadBounds,
): Promise<PartRead> {
  const [low, high] =
    range && 'between' in range
      ? range.between
      : [range && 'from' in range ? range.from : undefined, range && 'to' in range ? range.to : undefined];
  const walk = await walkMerged(
    shards.map((partition) => ({ partition, low, high })),
    {
      need,
      budget,
      after,
      evenly: true,
      confirm: async (batch) => {
        const records = new Map((await listedRecords(batch.map(({ item }) => item))).map((r) => [r.id, r]));
        return batch.flatMap(({ sort, item }) => {
          const record = records.get(listedTicketId(item));
          return record && accept(record) ? [{ sort, item: { record } }] : [];
        });
      },
    },
  );
  const records = walk.items.map(({ item }) => item.record as TicketRecord);
  return { records, complete: walk.complete, itemsRead: walk.itemsRead, lastSort: walk.lastSort };
}
