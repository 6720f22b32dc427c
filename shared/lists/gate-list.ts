import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { db, tableName } from '../data/client.ts';
import { INDEX_SHARDS, keys } from '../data/keys.ts';
import { keyCondition, type Partition } from '../data/key-conditions.ts';
import { listedRecords, listedTicketId } from '../tickets/data/ticket-records.ts';
import { listShards, readShards } from './ticket-list-shards.ts';

/**
 * The admission list's full walk (`GET /gate-lists/{eventId}`): the event's own live tickets
 * (its `eventTickets` list, its shards merged) and then the tickets whose access package grants it (its
 * `accessTickets` list), each in id order, by bounded Queries of their small entries and a
 * BatchGetItem of their records. Deleted tickets have no entries, so they are not on it.
 */
export type GateListPart = 'own' | 'access';

export interface GateListRead {
  records: TicketRecord[];
  /** The id the part's next read starts after; undefined when the part is read to its end. */
  lastId?: number;
}

export async function readGateListPart(
  eventId: number,
  part: GateListPart,
  after: number | undefined,
  limit: number,
): Promise<GateListRead> {
  if (part === 'own') {
    const read = await readShards(listShards.eventTickets(eventId), own(after, limit), () => true);
    const records = await listedRecords(read.matches);
    return { records, ...(read.exhausted ? {} : { lastId: read.lastId }) };
  }
  const partition = keys.accessTickets(eventId);
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyConditionAfter(partition, after),
      Limit: limit,
    }),
  );
  const records = await listedRecords(Items);
  const last = Items.at(-1);
  return { records, ...(LastEvaluatedKey && last ? { lastId: listedTicketId(last) } : {}) };
}

/** The own part's shards from after `after`: `limit` items, read within a little more (each shard asked its share). */
const own = (after: number | undefined, limit: number) => ({
  from: after,
  descending: false,
  need: limit,
  budget: limit + INDEX_SHARDS.eventTickets,
});

const keyConditionAfter = (partition: Partition, after: number | undefined) =>
  keyCondition(partition, after === undefined ? undefined : { from: keys.ticketSort(after + 1) });
