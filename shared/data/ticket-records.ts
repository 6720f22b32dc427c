import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketRecord } from '../domain/ticket.ts';
import { batchGet, db, tableName, withoutKeys } from './client.ts';
import { keys } from './keys.ts';

/**
 * Ticket records: one item `TICKET#<id>` each holds the whole record (fields, states,
 * scans, claim, purchaser, the events its type grants), so a check-in needs one read.
 * Live tickets carry the list index keys; a deleted one loses them (sparse indexes), so
 * it leaves every list while its record stays.
 */
const ENTITY = 'Ticket';

export const ticketItem = (record: TicketRecord) => ({
  ...keys.ticket(record.id),
  ...(record.deleted ? {} : keys.ticketIndexes(record.eventId, record.typeId, record.id)),
  entity: ENTITY,
  // The lists' team filter: 0 = unassigned.
  teamKey: record.teamId ?? 0,
  ...record,
});

export function fromTicketItem(item: Record<string, unknown>): TicketRecord {
  const { teamKey, ...record } = withoutKeys(item);
  return record as unknown as TicketRecord;
}

/** The record (deleted ones included), strongly consistent; undefined when there is none. */
export async function readTicketRecord(id: number): Promise<TicketRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticket(id), ConsistentRead: true }));
  return Item ? fromTicketItem(Item) : undefined;
}

/** Records by id (deleted ones included), strongly consistent; missing ids are absent from the map. */
export async function readTicketRecords(ids: number[]): Promise<Map<number, TicketRecord>> {
  const items = await batchGet(ids.map((id) => keys.ticket(id)), { consistent: true });
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), fromTicketItem(item)] as const] : [])));
}
