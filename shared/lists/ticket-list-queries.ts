import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ListUser, ListWaveTime } from '../tickets/domain/older-ticket-view.ts';
import type { SearchKey } from './search-tokens.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { batchGet, db, tableName } from '../data/client.ts';
import { INDEX_SHARDS, keys, shardsOf, sortableId } from '../data/keys.ts';
import { keyAttributes, keyCondition, type Partition, type SortCondition } from '../data/key-conditions.ts';
import { mergedRead, ordered, type IndexRead, type MergedRead, type PartRead, type ReadBounds } from './merged-read.ts';
import {
  listedRecords,
  readTicketRecord,
  readTicketRecords,
  TICKET_UPDATE_SHARDS,
} from '../tickets/data/ticket-records.ts';
import { listShards, readShardRange } from './ticket-list-shards.ts';
import { readSearchEntries, searchSortOf, type SearchPartition } from './ticket-search-entries.ts';

/**
 * The reads of `GET /ticket` (older-ticket-pages.ts) other than an
 * event's or a type's list alone (those page from the kept positions, ticket-lists.ts):
 * one serving index read in its sort order from after a sort key, until `need` records
 * pass `accept`, its end, or `budget` index items. `complete` says whether it reached the
 * end; `lastSort` is where a `_cursor` resumes. Every serving sort key ends in the
 * ticket's zero-padded id, so "after" is a plain key condition (`nextSort`).
 */
/** The live ticket holding a barcode: one GetItem of its unique item, one of the ticket. */
export async function ticketByBarcode(barcode: string): Promise<IndexRead> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.barcode(barcode) }));
  const record = Item ? await readTicketRecord(Number(Item.ticketId)) : undefined;
  return { records: record && !record.deleted ? [record] : [], complete: true, itemsRead: Item ? 1 : 0 };
}

/** The order a serving list is read in: by id, by purchase time or by update time (each ending in the id). */
export type ServingOrder = 'id' | 'purchase' | 'update';
type Range = { partition: Partition; range?: SortCondition };

/** The first sort key after `sort`: its trailing 10-digit id plus one (every serving sort key ends in one). */
export const nextSort = (sort: string): string => `${sort.slice(0, -10)}${sortableId(Number(sort.slice(-10)) + 1)}`;

/** The sort key a record has in a serving list of that order (where a cursor after it resumes). */
export function sortOf(order: ServingOrder, record: TicketRecord): string {
  switch (order) {
    case 'id':
      return keys.ticketSort(record.id);
    case 'purchase':
      return keys.purchaseSort(record.purchasedDate ?? record.created, record.id);
    case 'update':
      return keys.updateSort(record.updated, record.id);
  }
}

/** One key range in index order from after `after`, `Limit`ed by what is still missing plus what `accept` dropped so far. */
async function readRange({ partition, range }: Range, { after, need, budget, accept }: ReadBounds): Promise<PartRead> {
  const [from, to] =
    range && 'between' in range
      ? range.between
      : [range && 'from' in range ? range.from : undefined, range && 'to' in range ? range.to : undefined];
  const start = after === undefined ? from : from === undefined || nextSort(after) > from ? nextSort(after) : from;
  if (start !== undefined && to !== undefined && start > to) return { records: [], complete: true, itemsRead: 0 };
  const sort: SortCondition | undefined =
    start !== undefined && to !== undefined
      ? { between: [start, to] }
      : start !== undefined
        ? { from: start }
        : to !== undefined
          ? { to }
          : undefined;
  const input: QueryCommandInput = { TableName: tableName(), ...keyCondition(partition, sort) };
  const sortName = keyAttributes(partition).sort;
  const records: TicketRecord[] = [];
  let read = 0;
  let lastSort: string | undefined;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        ...input,
        Limit: Math.min(budget - read, need - records.length + (read - records.length)),
        ExclusiveStartKey: startKey,
      }),
    );
    const items = page.Items ?? [];
    read += items.length;
    if (items.length) lastSort = String(items.at(-1)![sortName]);
    // The lists' entries, then their tickets in one batch read (a ticket deleted meanwhile is left out).
    for (const record of await listedRecords(items)) if (accept(record)) records.push(record);
    startKey = page.LastEvaluatedKey;
  } while (startKey && records.length < need && read < budget);
  return { records, complete: !startKey, itemsRead: read, lastSort };
}

/** An order's live tickets (an order holds at most 50). */
export const orderTickets = (orderId: number, bounds: ReadBounds) =>
  readRange({ partition: keys.orderTickets(orderId) }, bounds);
/** An event's live tickets, in id order: its shards merged. */
export const eventTickets = (eventId: number, bounds: ReadBounds) =>
  readShardRange(listShards.eventTickets(eventId), undefined, bounds);
/** A type's live tickets, in id order. */
export const typeTickets = (typeId: number, bounds: ReadBounds) =>
  readRange({ partition: keys.typeTickets(typeId) }, bounds);
/** A customer's live tickets. */
export const customerTickets = (customerId: number, bounds: ReadBounds) =>
  readRange({ partition: keys.customerTickets(customerId) }, bounds);

/** An event's live tickets bought within the range (a key condition), its shards merged. */
export const eventPurchases = (eventId: number, range: { from?: string; to?: string }, bounds: ReadBounds) =>
  readShardRange(
    shardsOf(INDEX_SHARDS.eventTickets).map((shard) => keys.eventPurchases(eventId, shard)),
    keys.timeRange(range),
    bounds,
  );
/** A type's live tickets bought within the range (a key condition). */
export const typePurchases = (typeId: number, range: { from?: string; to?: string }, bounds: ReadBounds) =>
  readRange({ partition: keys.typePurchases(typeId), range: keys.timeRange(range) }, bounds);

/**
 * The tickets a search word finds in the given partitions (an event's, each event of a
 * scope, or every event's), each read in (token, id) order from after the cursor's sort
 * key and merged in that order (`mergedRead`: the merged prefix is always the whole page).
 * A search that is a ticket id (`byId`) also finds that ticket, in its place in the same
 * order.
 */
export async function searchedTickets(
  where: SearchPartition[],
  key: SearchKey,
  typeId: number | undefined,
  bounds: ReadBounds,
  byId?: number,
): Promise<IndexRead> {
  const sortOfFound = (record: TicketRecord) => searchSortOf(record, key.word);
  const [found, named] = await Promise.all([
    mergedRead(
      where.map((partition) => (part: ReadBounds) => searchedIn(partition, key, typeId, part)),
      bounds,
      sortOfFound,
    ),
    byId === undefined ? undefined : readTicketRecord(byId),
  ]);
  const withNamed =
    named &&
    bounds.accept(named) &&
    (typeId === undefined || named.typeId === typeId) &&
    !found.records.some((record) => record.id === named.id)
      ? [...found.records, named]
      : found.records;
  // In the merged order; a record whose first matching token changed since its entry was read keeps to the cursor too.
  const records = ordered(
    withNamed,
    sortOfFound,
    (sort) => (bounds.after === undefined || sort > bounds.after) && (found.cut === undefined || sort <= found.cut),
  );
  return { records, complete: found.complete, itemsRead: found.itemsRead + (named ? 1 : 0) };
}

async function searchedIn(
  where: SearchPartition,
  key: SearchKey,
  typeId: number | undefined,
  { after, need, budget, accept }: ReadBounds,
): Promise<PartRead> {
  const records: TicketRecord[] = [];
  let read = 0;
  let cursor = after;
  let complete = false;
  while (records.length < need && read < budget) {
    const ofType = typeId === undefined ? undefined : (entry: { typeId: number }) => entry.typeId === typeId;
    const chunk = await readSearchEntries(where, key, {
      after: cursor,
      need: need - records.length,
      budget: budget - read,
      accept: ofType,
    });
    read += chunk.itemsRead;
    const found = await readTicketRecords(chunk.ticketIds);
    for (const id of chunk.ticketIds) {
      const record = found.get(id);
      if (record && accept(record)) records.push(record);
    }
    cursor = chunk.lastSort;
    complete = chunk.complete;
    if (complete) break;
  }
  return { records, complete, itemsRead: read, lastSort: cursor };
}

/**
 * Tickets changed within the range, deleted ones included, of every event or of the named
 * ones (`events`: their own shards, so none of another event's changes is read): the
 * update-time shards read at once, each in (updated, id) order from after the cursor, and
 * merged in that order (`mergedRead`: the merged prefix is always the whole page, the rest
 * is the next page's).
 */
export async function ticketUpdates(
  range: { from?: string; to?: string; events?: readonly number[] },
  bounds: ReadBounds,
): Promise<MergedRead> {
  const each = Array.from({ length: TICKET_UPDATE_SHARDS }, (_, shard) => shard);
  const partitions = range.events
    ? range.events.flatMap((eventId) => each.map((shard) => keys.eventUpdates(eventId, shard)))
    : each.map((shard) => keys.ticketUpdates(shard));
  const read = (partition: Partition) => (part: ReadBounds) =>
    readRange({ partition, range: keys.timeRange(range) }, part);
  // The cut: where a reader walking by cursor resumes (the gate list's changedSince).
  return mergedRead(partitions.map(read), bounds, (record) => sortOf('update', record));
}

// ---- The expansions' reads: one BatchGetItem per kind per page ----------------------------

/** Orders' `affiliate` (the `promoter` expansion). */
export async function orderAffiliates(orderIds: number[]): Promise<Map<number, string | null>> {
  const ids = [...new Set(orderIds)];
  const items = await batchGet(
    ids.map((id) => keys.order(id)),
    { projection: 'id, affiliate' },
  );
  return new Map(
    items.flatMap((item) => (item ? [[Number(item.id), (item.affiliate as string | null) ?? null] as const] : [])),
  );
}

/** Wave times by event and id (the `waveTime` expansion), keyed `<eventId>/<id>`. */
export async function waveTimes(waves: { eventId: number; id: number }[]): Promise<Map<string, ListWaveTime>> {
  const items = await batchGet(
    waves.map((wave) => keys.waveTime(wave.eventId, wave.id)),
    {
      // Both are DynamoDB reserved words.
      projection: 'id, eventId, #name, startTime, #capacity',
      names: { '#name': 'name', '#capacity': 'capacity' },
    },
  );
  return new Map(
    items.flatMap((item) =>
      item
        ? [
            [
              `${item.eventId}/${item.id}`,
              {
                id: Number(item.id),
                name: String(item.name),
                startTime: String(item.startTime),
                capacity: Number(item.capacity),
              },
            ] as const,
          ]
        : [],
    ),
  );
}

/** Customers' `{id, name, emailAddress}` (the `user` expansion). */
export async function customerSummaries(customerIds: number[]): Promise<Map<number, ListUser>> {
  const ids = [...new Set(customerIds)];
  const items = await batchGet(
    ids.map((id) => keys.customer(id)),
    { projection: 'id, #name, emailAddress', names: { '#name': 'name' } },
  );
  return new Map(
    items.flatMap((item) =>
      item
        ? [
            [
              Number(item.id),
              { id: Number(item.id), name: String(item.name), emailAddress: String(item.emailAddress) },
            ] as const,
          ]
        : [],
    ),
  );
}
