import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../domain/paging.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { batchGet, db, tableName, withoutKeys } from './client.ts';
import { keyCondition, keys } from './keys.ts';

/**
 * Ticket records: one item `TICKET#<id>` each holds the whole record (fields, states,
 * scans, claim, purchaser, the events its type grants), so a check-in needs one read.
 * Live tickets carry the list index keys; a deleted one loses them (sparse indexes), so
 * it leaves every list while its record stays. GSI3 (an order's tickets) and GSI4 (a
 * customer's tickets) are present only when the ticket has an order / a customer. GSI5
 * (an event's tickets by purchase time) is sparse too; GSI6 (every ticket by update
 * time, sharded) is not: the incremental sync of `GET /ticket` reports deletions.
 */
const ENTITY = 'Ticket';

/** Update-time index write shards: one busy minute of changes spreads over this many partitions; the sync merges them. */
export const TICKET_UPDATE_SHARDS = 8;

export const ticketItem = (record: TicketRecord) => ({
  ...keys.ticket(record.id),
  // GSI5 (an event's purchases) is sparse like GSI1; GSI6 (update time) keeps deleted tickets: the sync reports deletions.
  ...(record.deleted ? {} : keys.eventPurchaseIndexes(record.eventId, record.purchasedDate ?? record.created, record.id)),
  ...keys.ticketUpdateIndexes(record.id % TICKET_UPDATE_SHARDS, record.updated, record.id),
  ...(record.deleted ? {} : keys.ticketIndexes(record.eventId, record.typeId, record.id)),
  ...(record.deleted || record.orderId == null ? {} : keys.orderTicketIndexes(record.orderId, record.id)),
  ...(record.deleted || record.customerId == null ? {} : keys.customerTicketIndexes(record.customerId, record.id)),
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

/** Tickets an order can hold (createOrder allows at most this many): its Query reads at most this many. */
export const MAX_ORDER_TICKETS = 50;

/** An order's live tickets in id order: one Query. */
export async function listOrderTickets(orderId: number): Promise<TicketRecord[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.orderTickets(orderId)),
      Limit: MAX_ORDER_TICKETS,
    }),
  );
  return (Items ?? []).map(fromTicketItem);
}

/**
 * A page of a customer's live tickets in id order: one Query of GSI4 reading the first
 * offset+limit+1 (a deep offset reads what precedes it). No per-customer ticket counter
 * exists yet, so `totalCount` is what was read (exact when `more` is false) and `more`
 * says whether tickets follow the page.
 */
export async function listCustomerTickets(customerId: number, { limit, offset }: { limit: number; offset: number }): Promise<Page<TicketRecord> & { more: boolean }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.customerTickets(customerId)),
      // One more than the page: whether it exists says whether more follow.
      Limit: offset + limit + 1,
    }),
  );
  const records = Items.slice(0, offset + limit).map(fromTicketItem);
  return { totalCount: records.length, limit, offset, items: records.slice(offset, offset + limit), more: Items.length > offset + limit };
}
