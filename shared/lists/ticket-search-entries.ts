import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SEARCH_BUCKET, searchTokens, type SearchKey } from './search-tokens.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { keyAttributes, keyCondition, prefixRange, type SortCondition } from '../data/key-conditions.ts';

/**
 * A live ticket's search entries: one small item per search token (search-tokens.ts)
 * in its own partition, `TICKET#<id>` / `SEARCH#<token>`, on GSI1
 * `SEARCH#<eventId>#<token's first 2 characters>` / `<token>#<id:10>` and on GSI2
 * `SEARCH_ALL#<token's first 2 characters>` / the same (every event's), so a search word
 * is one Query `begins_with` in one partition, in (token, id) order. Each entry carries the
 * ticket's tokens of its bucket that sort before it (`mates`; any token a word starts is in
 * the word's bucket), so a reader counts a ticket once, under its first matching token.
 * A change rewrites the entries of the changed tokens and, in their bucket, of the tokens
 * sorting after them, whatever field those come from: renaming an attendee "Okafor" rewrites
 * the entry of the barcode `OKZ4471` (its mates gain `okafor`), else a search for "ok" would
 * count the ticket under both (test/integration/write-units.test.ts states both cases).
 * Written off the ticket's transaction, by the table stream's consumer (`catchUpSearchEntries`), only when they
 * change (a check-in writes none); a deleted ticket has none. A search finds a ticket once its consumer has run
 * (README.md here, "How long the search lags").
 */
type SearchEntry = Record<string, unknown> & { PK: string; SK: string };

export function searchEntryItems(record: TicketRecord): SearchEntry[] {
  const tokens = searchTokens(record);
  const bucketOf = (token: string) => token.slice(0, SEARCH_BUCKET);
  return tokens.map((token) => {
    const mates = tokens.filter((other) => other < token && bucketOf(other) === bucketOf(token)).sort();
    return {
      ...keys.ticketSearchEntry(record.id, token),
      entity: 'TicketSearchEntry',
      ...keys.searchEntryIndexes(record.eventId, bucketOf(token), token, record.id),
      ticketId: record.id,
      eventId: record.eventId,
      typeId: record.typeId,
      ...(mates.length ? { mates } : {}),
    };
  });
}

/**
 * The puts and deletes that bring the tickets' stored search entries to what their records (read by the caller) hold:
 * the table stream's consumer's search part (list-catch-up.ts), off the change's own transaction. One bounded Query of
 * each ticket's own partition; what differs is put, what is gone deleted (plain writes: half a transactional write's
 * units). It depends on no stream image and no order: a record read twice, late or replayed writes nothing a second
 * time, and the last run for a ticket leaves its entries as its record is then.
 */
export async function searchEntryWrites(ids: readonly number[], records: ReadonlyMap<number, TicketRecord>) {
  const stored = await Promise.all(ids.map(storedSearchEntries));
  return ids.flatMap((id, n) => entryWrites(id, records.get(id), stored[n]!));
}

/** A ticket's stored entries read per page: a ticket has MAX_TOKENS (8), so one page, and a bound on every Query. */
const STORED_ENTRIES_PAGE = 16;

async function storedSearchEntries(ticketId: number): Promise<Record<string, unknown>[]> {
  const entries: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(keys.ticketItems(ticketId), { beginsWith: keys.ticketSearchEntryPrefix }),
        ConsistentRead: true,
        Limit: STORED_ENTRIES_PAGE,
        ExclusiveStartKey: startKey,
      }),
    );
    entries.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return entries;
}

/** An item's attributes in one order, so an entry read back compares equal to the one built. */
const canonical = (item: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))));

/** The puts and deletes that take a ticket's stored entries to its record's (none for a deleted or missing ticket). */
function entryWrites(ticketId: number, record: TicketRecord | undefined, stored: Record<string, unknown>[]) {
  const old = new Map(stored.map((item) => [String(item.SK), canonical(item)]));
  const next = record ? searchEntryItems(record) : [];
  const kept = new Set(next.map((item) => item.SK));
  return [
    ...next.filter((item) => old.get(item.SK) !== canonical(item)).map((item) => ({ put: item })),
    ...[...old.keys()]
      .filter((sk) => !kept.has(sk))
      .map((sk) => ({ delete: { PK: keys.ticket(ticketId).PK, SK: sk } })),
  ];
}

export interface SearchRead {
  /** Ticket ids in (token, id) order, each once: under the first of its tokens the word starts. */
  ticketIds: number[];
  /** The sort key after which the next read resumes (the last entry read). */
  lastSort?: string;
  /** The word's range was read to its end. */
  complete: boolean;
  itemsRead: number;
}

/** Where a search reads: one event's entries, or every event's. */
export type SearchPartition = { eventId: number } | 'everyEvent';

/**
 * The tickets of an event (or of every event) with a token the word starts, from after
 * `after` (a sort key), until `need` tickets, the range's end or `budget` entries. `accept`
 * sees each entry's ticket id and type (the type filter, applied before any ticket is read).
 */
export async function readSearchEntries(
  where: SearchPartition,
  { word, exact }: SearchKey,
  {
    after,
    need,
    budget,
    accept,
  }: {
    after?: string;
    need: number;
    budget: number;
    accept?: (entry: { ticketId: number; typeId: number }) => boolean;
  },
): Promise<SearchRead> {
  const ticketIds: number[] = [];
  let read = 0;
  let lastSort: string | undefined = after;
  let startKey: Record<string, unknown> | undefined;
  const bucket = word.slice(0, SEARCH_BUCKET);
  const partition = where === 'everyEvent' ? keys.searchEveryEvent(bucket) : keys.searchIn(where.eventId, bucket);
  // Exact: the one token (`<token>#<id>` keys); else every token the word starts.
  const prefix = exact ? `${word}#` : word;
  const range: SortCondition =
    after === undefined ? { beginsWith: prefix } : { between: [`${after}\u0001`, prefixRange(prefix)[1]] };
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(partition, range),
        Limit: Math.min(budget - read, need - ticketIds.length + (read - ticketIds.length)),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      read += 1;
      lastSort = String(item[keyAttributes(partition).sort]);
      const token = lastSort.slice(0, -11);
      // Counted once: under the first (smallest) of the ticket's tokens the word starts (an entry written
      // before `mates` holds all its ticket's `tokens`; those of other buckets never match the word).
      const earlier = (item.mates ?? item.tokens ?? []) as string[];
      if (earlier.some((other) => other < token && other.startsWith(word))) continue;
      if (accept && !accept({ ticketId: Number(item.ticketId), typeId: Number(item.typeId) })) continue;
      ticketIds.push(Number(item.ticketId));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && ticketIds.length < need && read < budget);
  return { ticketIds, lastSort, complete: !startKey, itemsRead: read };
}

/** The first (smallest) of a ticket's tokens a word starts: the one entry the ticket is counted under. */
const firstTokenOf = (tokens: readonly string[], word: string): string | undefined =>
  tokens.filter((token) => token.startsWith(word)).sort()[0];

/** Where a cursor after this ticket resumes a search by `word`: its entry's sort key. */
export const searchSortOf = (record: TicketRecord, word: string): string =>
  keys.searchSort(firstTokenOf(searchTokens(record), word) ?? word, record.id);
