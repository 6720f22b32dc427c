/**
 * One-off, after the releases that brought the list entries and the per-filter counts
 * (issue 12; README "Data migrations"), the search entries (issue 20) and the
 * entries that took the lists' keys off the ticket item (issue 23), and again after the one
 * that put the purchase entry in its type's purchase list: gives every live ticket written
 * before them its list entries (`LIST`, `LIST#EVENT`, `LIST#PURCHASE`,
 * `LIST#ACCESS#<eventId>`) and search entries, removes the list keys its record held
 * (one transaction per ticket, so each list shows it once throughout), then sets every
 * event's filter counts (`n#team#…`, `n#type#…`, `n#access#…` in its statistics shards) to
 * a recount from the records, and marks every event (`typePurchasesKept`). Migration 2 (catalogue.ts).
 *
 * Entries: each write is conditional on the ticket's version (a ticket changed meanwhile
 * is re-read and written again), so they are exact. Counts: set, not added, so a re-run
 * repairs them; a ticket of an event that changes while the Scan runs may leave that
 * event's counts off by its move, so run it in a quiet hour (or re-run it after one).
 * A Scan (or, for named events, their list index), which no request ever does: this is maintenance.
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName, transactWrite, TransactionCancelled } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyCondition, withValues } from '#shared/data/key-conditions';
import { grantedEvents, listEntryItems } from '#shared/data/ticket-list-entries';
import { FORMER_LIST_KEYS, fromTicketItem, readTicketRecord, ticketItem } from '#shared/data/ticket-records';
import { searchEntryItems } from '#shared/data/ticket-search-entries';
import { filterCount, grantedCounts, shardOf, STATS_SHARDS } from '#shared/data/ticket-stats';
import type { TicketRecord } from '#shared/domain/ticket';
import { recordIds, resumableScan, type RunOptions, type Stopped } from './runs.ts';

export interface ListBackfillOutcome extends Stopped {
  /** Live tickets whose entries were written. */
  entries: number;
  /** Statistics shards whose filter counts were set. */
  shards: number;
  /** Events marked as holding every live ticket in their types' purchase lists (`typePurchasesKept`). */
  marked: number;
}

export interface ListBackfillOptions extends RunOptions {
  /** Only these events' tickets (tests); counts are set for the events seen (or named). Default: every ticket, by a resumable Scan. */
  events?: number[];
}

/** Counter attributes set per UpdateItem (an expression stays far below DynamoDB's 4 KB). */
const SET_CHUNK = 50;

/**
 * Two passes: the entries (every ticket's, written page by page, resumable), then the counts
 * (a recount from the records, read again without writes, set whole) and the marks. The
 * recount is not resumable: a read of the ticket records alone, about a minute per 100,000.
 */
export async function backfillTicketLists({ events, ...run }: ListBackfillOptions = {}): Promise<ListBackfillOutcome> {
  const outcome: ListBackfillOutcome = { entries: 0, shards: 0, marked: 0 };
  const written = async (items: Record<string, unknown>[]) => {
    for (const item of items) {
      const found = item.entity === 'Ticket' ? fromTicketItem(item) : await readTicketRecord(Number(item.ticketId));
      const record = found && (await writeEntries(found));
      if (record && !record.deleted) outcome.entries += 1;
    }
  };
  if (events?.length) for await (const items of ticketPages(events)) await written(items);
  else if (!(await resumableScan('backfill-ticket-lists', run, ticketScan(), written)))
    return { ...outcome, stopped: true };

  const counts = new Map<string, Map<string, number>>();
  const seen = new Set<number>(events ?? []);
  const count = (eventId: number, ticketId: number, name: string) => {
    const shard = `${eventId}/${shardOf(ticketId)}`;
    const names = counts.get(shard) ?? new Map<string, number>();
    names.set(name, (names.get(name) ?? 0) + 1);
    counts.set(shard, names);
  };
  for await (const items of ticketPages(events)) {
    for (const item of items) {
      const record = item.entity === 'Ticket' ? fromTicketItem(item) : await readTicketRecord(Number(item.ticketId));
      if (!record || record.deleted) continue;
      seen.add(record.eventId);
      count(record.eventId, record.id, filterCount.team(record.teamId ?? 0, record.processState));
      count(record.eventId, record.id, filterCount.type(record.typeId, record.processState));
      count(record.eventId, record.id, filterCount.teamType(record.teamId ?? 0, record.typeId, record.processState));
      for (const eventId of grantedEvents(record)) {
        if (events?.length && !events.includes(eventId)) continue;
        seen.add(eventId);
        for (const name of grantedCounts(record)) count(eventId, record.id, name);
      }
    }
  }
  for (const eventId of seen)
    for (let shard = 0; shard < STATS_SHARDS; shard++)
      outcome.shards += await setCounts(eventId, shard, counts.get(`${eventId}/${shard}`) ?? new Map());
  // Every live ticket of the events (all of them after a Scan) now has its entries, its type's purchase list among them.
  for (const eventId of events ?? (await recordIds('EVENT'))) {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.typePurchasesKept(eventId), entity: 'TypePurchasesKept' },
      }),
    );
    outcome.marked += 1;
  }
  return outcome;
}

const PAGE_SIZE = 500;
/** The ticket records, by a Scan (maintenance only). */
const ticketScan = () => ({
  TableName: tableName(),
  FilterExpression: '#entity = :ticket AND SK = :sk',
  ExpressionAttributeNames: { '#entity': 'entity' },
  ExpressionAttributeValues: { ':ticket': 'Ticket', ':sk': 'TICKET' },
});

/**
 * The tickets to backfill, a page at a time: every ticket of the table (a Scan), or, with
 * `events`, each event's live tickets from its list (their entries, or their records stored
 * before the entries), so a run for a few events costs what they hold, not the table.
 */
async function* ticketPages(events: number[] | undefined): AsyncGenerator<Record<string, unknown>[]> {
  if (!events?.length) {
    yield* pagesOf((start) =>
      db.send(new ScanCommand({ ...ticketScan(), Limit: PAGE_SIZE, ExclusiveStartKey: start })),
    );
    return;
  }
  for (const eventId of events) {
    const query: QueryCommandInput = {
      TableName: tableName(),
      // A ticket stored before its entries, or the entry that lists it now (a re-run writes it again).
      ...withValues(keyCondition(keys.eventTickets(eventId)), { ':ticket': 'Ticket', ':entry': 'TicketEventEntry' }),
      FilterExpression: '#entity IN (:ticket, :entry)',
      ExpressionAttributeNames: { '#entity': 'entity' },
      Limit: PAGE_SIZE,
    };
    yield* pagesOf((start) => db.send(new QueryCommand({ ...query, ExclusiveStartKey: start })));
  }
}

type Page = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };

async function* pagesOf(
  read: (start: Record<string, unknown> | undefined) => Promise<Page>,
): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await read(start);
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * The ticket's entries, and its record without the list keys it held before the entries did
 * (in the same partitions and sort keys, so each list shows it once, before or after), in one
 * transaction conditional on its version; re-read and retried when it changed. Answers the
 * record written for.
 */
async function writeEntries(record: TicketRecord): Promise<TicketRecord | undefined> {
  for (let current: TicketRecord | undefined = record; current; current = await readTicketRecord(current.id)) {
    if (current.deleted) return current;
    // The index keys the record holds now (its event's update shard, in GSI5 as its purchase list key was) are set, not removed.
    const held = Object.entries(ticketItem(current)).filter(([name]) => FORMER_LIST_KEYS.includes(name));
    const former = [...FORMER_LIST_KEYS, 'teamKey'].filter((name) => !held.some(([kept]) => kept === name));
    const strip = {
      TableName: tableName(),
      Key: keys.ticket(current.id),
      UpdateExpression: `REMOVE ${former.map((_, i) => `#f${i}`).join(', ')} SET ${held.map((_, i) => `#h${i} = :h${i}`).join(', ')}`,
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: {
        '#version': 'version',
        ...Object.fromEntries(former.map((name, i) => [`#f${i}`, name])),
        ...Object.fromEntries(held.map(([name], i) => [`#h${i}`, name])),
      },
      ExpressionAttributeValues: {
        ':version': current.version,
        ...Object.fromEntries(held.map(([, value], i) => [`:h${i}`, value])),
      },
    };
    try {
      const entries = [...listEntryItems(current), ...searchEntryItems(current)];
      await transactWrite([{ Update: strip }, ...entries.map((Item) => ({ Put: { TableName: tableName(), Item } }))]);
      return current;
    } catch (error) {
      if (!(error instanceof TransactionCancelled) || !error.conditionFailed(0)) throw error;
    }
  }
  return undefined;
}

/** Sets a shard's filter counts to the recount: the counted ones, and 0 for any other it holds. Answers 1 when the shard exists. */
async function setCounts(eventId: number, shard: number, recount: Map<string, number>): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.eventStats(eventId, shard), ConsistentRead: true }),
  );
  if (!Item) return 0;
  const values = new Map([
    ...Object.keys(Item)
      .filter((name) => name.startsWith('n#'))
      .map((name) => [name, 0] as const),
    ...recount,
  ]);
  const entries = [...values];
  for (let start = 0; start < entries.length; start += SET_CHUNK) {
    const chunk = entries.slice(start, start + SET_CHUNK);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.eventStats(eventId, shard),
        UpdateExpression: `SET ${chunk.map((_, i) => `#n${i} = :n${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(chunk.map(([name], i) => [`#n${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(chunk.map(([, value], i) => [`:n${i}`, value])),
      }),
    );
  }
  return 1;
}
