import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../schema.ts';
import { SEARCH_BUCKET, searchTokens, type SearchKey } from './search-tokens.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { batchGet, db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { parseItem } from '../data/stored-items.ts';
import { keyAttributes, keyCondition, prefixRange, type SortCondition } from '../data/key-conditions.ts';

/**
 * A live ticket's search entries: one small item per search token (search-tokens.ts), keyed
 * `SEARCH#<eventId>#<token's first 2 characters>` / `<token>#<id:10>` and on GSI2
 * `SEARCH_ALL#<token's first 2 characters>` / the same (every event's), so a search word
 * is one Query `begins_with` in one partition, in (token, id) order. Each entry carries the
 * ticket's tokens of its bucket that sort before it (`mates`; any token a word starts is in
 * the word's bucket), so a reader counts a ticket once, under its first matching token.
 * A change rewrites the entries of the changed tokens and, in their bucket, of the tokens
 * sorting after them, whatever field those come from: renaming an attendee "Okafor" rewrites
 * the entry of the barcode `OKZ4471` (its mates gain `okafor`), else a search for "ok" would
 * count the ticket under both (test/integration/write-units.test.ts states both cases).
 * The entries are keyed where they are read (2 units a plain put: the item and GSI2, where an entry in the ticket's
 * partition placed on GSI1 too cost 3), so the ticket's own partition keeps the list of what they are (`TICKET#<id>` /
 * `SEARCH`: its event, type and tokens, from which every entry is built again) for the consumer to compare a change with.
 * Written off the ticket's transaction, by the table stream's consumer (`catchUpSearchEntries`), only when they
 * change (a check-in writes none); a deleted ticket has none. A search finds a ticket once its consumer has run
 * (README.md here, "How long the search lags").
 */
type SearchEntry = Record<string, unknown> & { PK: string; SK: string };

/** What a ticket's entries are built from, as its token list stores it. */
interface Searched {
  id: number;
  eventId: number;
  typeId: number;
  tokens: readonly string[];
}

const bucketOf = (token: string) => token.slice(0, SEARCH_BUCKET);

const searchedOf = (record: TicketRecord): Searched => ({
  id: record.id,
  eventId: record.eventId,
  typeId: record.typeId,
  tokens: searchTokens(record),
});

function entriesOf({ id, eventId, typeId, tokens }: Searched): SearchEntry[] {
  return tokens.map((token) => {
    const mates = tokens.filter((other) => other < token && bucketOf(other) === bucketOf(token)).sort();
    return {
      ...keys.searchEntry(eventId, bucketOf(token), token, id),
      entity: 'TicketSearchEntry',
      ...keys.searchEntryIndexes(bucketOf(token), token, id),
      ticketId: id,
      eventId,
      typeId,
      ...(mates.length ? { mates } : {}),
    };
  });
}

const tokenListItem = ({ id, eventId, typeId, tokens }: Searched) => ({
  ...keys.ticketSearchTokens(id),
  entity: 'TicketSearchTokens',
  eventId,
  typeId,
  tokens: [...tokens],
});

/** Every item of a live ticket's search: its entries and its token list (bulk loads write them, lists/writes.ts). */
export function searchEntryItems(record: TicketRecord): Record<string, unknown>[] {
  const searched = searchedOf(record);
  return [...entriesOf(searched), tokenListItem(searched)];
}

const TokenListItem = z.lazy(() =>
  z.object({
    eventId: z.number(),
    typeId: z.number(),
    tokens: z.array(z.string()),
  }),
);

/**
 * The puts and deletes that bring the tickets' stored search entries to what their records (read by the caller) hold:
 * the table stream's consumer's search part (list-catch-up.ts), off the change's own transaction. One consistent
 * BatchGetItem of the tickets' token lists; the entries that differ are put, those gone deleted (`entries`), then,
 * once those are written, the token lists (`lists`: a run stopped between them finds the old list and writes the
 * entries again; a list written first would hide an entry never written). Plain writes: half a transactional write's
 * units. It depends on no stream image and no order: a record read twice,
 * late or replayed writes nothing a second time, and the last run for a ticket leaves its entries as its record is then.
 */
export async function searchEntryWrites(ids: readonly number[], records: ReadonlyMap<number, TicketRecord>) {
  const stored = await batchGet(
    ids.map((id) => keys.ticketSearchTokens(id)),
    { consistent: true },
  );
  const writes = ids.map((id, n) => {
    const item = stored[n];
    const before = item ? { ...parseItem(TokenListItem, item, 'TicketSearchTokens'), id } : undefined;
    const record = records.get(id);
    return entryWrites(id, before, record && !record.deleted ? searchedOf(record) : undefined);
  });
  return { entries: writes.flatMap((write) => write.entries), lists: writes.flatMap((write) => write.list) };
}

/** An item's attributes in one order, so an entry built from the stored list compares equal to the one built now. */
const canonical = (item: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))));

const keyOf = ({ PK, SK }: SearchEntry) => `${PK}\u0000${SK}`;

type SearchWrite = { put: Record<string, unknown> } | { delete: Record<string, unknown> };

/** The puts and deletes that take a ticket's stored entries (`before`) to its record's (`after`; none: deleted or missing). */
function entryWrites(
  ticketId: number,
  before: Searched | undefined,
  after: Searched | undefined,
): { entries: SearchWrite[]; list: SearchWrite[] } {
  const old = new Map((before ? entriesOf(before) : []).map((entry) => [keyOf(entry), entry]));
  const next = after ? entriesOf(after) : [];
  const kept = new Set(next.map(keyOf));
  const list = after && tokenListItem(after);
  const listChanged = canonical(list ?? {}) !== canonical(before ? tokenListItem(before) : {});
  return {
    entries: [
      ...next.filter((entry) => canonical(old.get(keyOf(entry)) ?? {}) !== canonical(entry)).map((put) => ({ put })),
      ...[...old.values()].filter((entry) => !kept.has(keyOf(entry))).map(({ PK, SK }) => ({ delete: { PK, SK } })),
    ],
    list: !listChanged ? [] : list ? [{ put: list }] : [{ delete: keys.ticketSearchTokens(ticketId) }],
  };
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
      // Counted once: under the first (smallest) of the ticket's tokens the word starts.
      const earlier = (item.mates ?? []) as string[];
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
