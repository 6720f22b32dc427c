import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketRecord } from '../domain/ticket.ts';
import { db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { keyCondition, type Partition } from '../data/key-conditions.ts';
import { listedRecords, listedTicketId } from '../data/ticket-records.ts';

/**
 * The admission list's full walk (`GET /gate-lists/{eventId}`): the event's own live tickets
 * (its `eventTickets` list) and then the tickets whose access package grants it (its
 * `accessTickets` list), each in id order, by one bounded Query of their small entries and a
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
  const partition = part === 'own' ? keys.eventTickets(eventId) : keys.accessTickets(eventId);
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

const keyConditionAfter = (partition: Partition, after: number | undefined) =>
  keyCondition(partition, after === undefined ? undefined : { from: keys.ticketSort(after + 1) });
