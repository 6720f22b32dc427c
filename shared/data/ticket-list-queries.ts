import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ListUser, ListWaveTime } from '../domain/older-ticket-list.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { batchGet, db, tableName } from './client.ts';
import { keys } from './keys.ts';
import { fromTicketItem, readTicketRecord, TICKET_UPDATE_SHARDS } from './ticket-records.ts';

/**
 * The reads of `GET /ticket` (shared/use-cases/tickets/older-ticket-list.ts): one per
 * serving index, each bounded by a budget of index items; `complete` says whether the
 * read reached the end of the range (else the answer is cut and says so).
 */
export interface IndexRead {
  records: TicketRecord[];
  complete: boolean;
  /** Index items read (the bench and the tests compare it with what was asked). */
  itemsRead: number;
}

/** The live ticket holding a barcode: one GetItem of its unique item, one of the ticket. */
export async function ticketByBarcode(barcode: string): Promise<IndexRead> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.barcode(barcode) }));
  const record = Item ? await readTicketRecord(Number(Item.ticketId)) : undefined;
  return { records: record && !record.deleted ? [record] : [], complete: true, itemsRead: Item ? 1 : 0 };
}

type Range = { index: 'GSI1' | 'GSI2' | 'GSI3' | 'GSI4' | 'GSI5' | 'GSI6'; partition: string; from?: string; to?: string };

/** One key range read in index order, page by page, `Limit`ed by what remains of `budget`. */
async function readRange({ index, partition, from, to }: Range, budget: number): Promise<IndexRead & { lastSort?: string }> {
  const bounds = from !== undefined && to !== undefined ? ' BETWEEN :from AND :to' : from !== undefined ? ' >= :from' : to !== undefined ? ' <= :to' : '';
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: index,
    KeyConditionExpression: `${index}PK = :pk${bounds ? ` AND ${index}SK${bounds}` : ''}`,
    ExpressionAttributeValues: { ':pk': partition, ...(from !== undefined ? { ':from': from } : {}), ...(to !== undefined ? { ':to': to } : {}) },
  };
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, Limit: budget - items.length, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < budget);
  const last = items.at(-1);
  return { records: items.map(fromTicketItem), complete: !startKey, itemsRead: items.length, lastSort: last?.[`${index}SK`] as string | undefined };
}

const time = (iso: string | undefined, end: 'first' | 'last') => (iso === undefined ? undefined : keys.timeSortBound(iso, end));

/** An order's live tickets (GSI3; an order holds at most 50). */
export const orderTickets = (orderId: number, budget: number) => readRange({ index: 'GSI3', partition: keys.orderTicketsIndex(orderId) }, budget);
/** A customer's live tickets (GSI4). */
export const customerTickets = (customerId: number, budget: number) => readRange({ index: 'GSI4', partition: keys.customerTicketsIndex(customerId) }, budget);
/** A type's live tickets (GSI2). */
export const typeTickets = (typeId: number, budget: number) => readRange({ index: 'GSI2', partition: keys.typeTicketsIndex(typeId) }, budget);
/** An event's live tickets (GSI1). */
export const eventTickets = (eventId: number, budget: number) => readRange({ index: 'GSI1', partition: keys.eventTicketsIndex(eventId) }, budget);
/** An event's live tickets bought within the range (GSI5, a key condition). */
export const eventPurchases = (eventId: number, range: { from?: string; to?: string }, budget: number) =>
  readRange({ index: 'GSI5', partition: keys.eventPurchasesIndex(eventId), from: time(range.from, 'first'), to: time(range.to, 'last') }, budget);

/**
 * Tickets changed within the range, deleted ones included (GSI6): the shards read at
 * once, each in (updated, id) order and `Limit`ed by its share of the budget. When a
 * shard stops short, only what precedes its last item is surely complete in the merged
 * order, so everything after the earliest such cut is dropped (the client resumes there).
 */
export async function ticketUpdates(range: { from?: string; to?: string }, budget: number): Promise<IndexRead> {
  const share = Math.max(1, Math.floor(budget / TICKET_UPDATE_SHARDS));
  const shards = await Promise.all(
    Array.from({ length: TICKET_UPDATE_SHARDS }, (_, shard) =>
      readRange({ index: 'GSI6', partition: keys.ticketUpdatesIndex(shard), from: time(range.from, 'first'), to: time(range.to, 'last') }, share),
    ),
  );
  const cuts = shards.filter((shard) => !shard.complete).map((shard) => shard.lastSort!);
  const cut = cuts.length ? cuts.sort()[0] : undefined;
  const sortOf = (record: TicketRecord) => keys.ticketUpdateIndex(0, record.updated, record.id).GSI6SK;
  const records = shards.flatMap((shard) => shard.records).filter((record) => cut === undefined || sortOf(record) <= cut);
  return { records, complete: cut === undefined, itemsRead: shards.reduce((sum, shard) => sum + shard.itemsRead, 0) };
}

// ---- The expansions' reads: one BatchGetItem per kind per page ----------------------------

/** Orders' `affiliate` (the `promoter` expansion). */
export async function orderAffiliates(orderIds: number[]): Promise<Map<number, string | null>> {
  const ids = [...new Set(orderIds)];
  const items = await batchGet(ids.map((id) => keys.order(id)), { projection: 'id, affiliate' });
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), (item.affiliate as string | null) ?? null] as const] : [])));
}

/** Wave times by event and id (the `waveTime` expansion), keyed `<eventId>/<id>`. */
export async function waveTimes(waves: { eventId: number; id: number }[]): Promise<Map<string, ListWaveTime>> {
  const items = await batchGet(waves.map((wave) => keys.waveTime(wave.eventId, wave.id)), {
    // Both are DynamoDB reserved words.
    projection: 'id, eventId, #name, startTime, #capacity',
    names: { '#name': 'name', '#capacity': 'capacity' },
  });
  return new Map(
    items.flatMap((item) =>
      item
        ? [[`${item.eventId}/${item.id}`, { id: Number(item.id), name: String(item.name), startTime: String(item.startTime), capacity: Number(item.capacity) }] as const]
        : [],
    ),
  );
}

/** Customers' `{id, name, emailAddress}` (the `user` expansion). */
export async function customerSummaries(customerIds: number[]): Promise<Map<number, ListUser>> {
  const ids = [...new Set(customerIds)];
  const items = await batchGet(ids.map((id) => keys.customer(id)), { projection: 'id, #name, emailAddress', names: { '#name': 'name' } });
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), { id: Number(item.id), name: String(item.name), emailAddress: String(item.emailAddress) }] as const] : [])));
}
