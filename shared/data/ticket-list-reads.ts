import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  candidates,
  LIST_READ_BUDGET,
  matchesList,
  POSITION_BLOCK,
  ownEvents,
  pastReadBound,
  sourcesOf,
  type Dimension,
  type ListKeys,
  type ListSource,
  type ListTuple,
  type TicketListQuery,
} from '../domain/ticket-list-plan.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';
import { keyCondition, type Partition } from './key-conditions.ts';
import type { ListStart } from './list-positions.ts';
import type { Counts } from './ticket-list-counts.ts';
import { listedTicketId } from './ticket-records.ts';

/**
 * The reads behind a ticket list's page (shared/data/ticket-lists.ts): each partition of the
 * chosen dimension Queried in id order from where the page starts, merged, filtered by the
 * rest of the filter, and bounded by LIST_READ_BUDGET.
 */

const listKeys: ListKeys<Partition> = {
  eventTickets: keys.eventTickets,
  teamTickets: keys.teamTickets,
  typeTickets: keys.typeTickets,
  stateTickets: keys.stateTickets,
  accessTickets: keys.accessTickets,
  allTickets: keys.allTickets,
};

type Item = Record<string, unknown>;
const tupleOf = (item: Item): ListTuple => ({
  eventId: Number(item.eventId),
  typeId: Number(item.typeId),
  teamKey: Number(item.teamKey ?? 0),
  processState: Number(item.processState),
});

interface SourceRead {
  matches: Item[];
  exhausted: boolean;
  lastId: number;
}

/** What an offset read keeps of each item it skips: the filter tuple and the id (no `entity`: the page is batch-read whole). */
const TUPLE_PROJECTION = 'id, ticketId, eventId, typeId, teamKey, processState';

interface ReadFrom {
  /** Exclusive: after this id (before it, `descending`); undefined from the list's end that comes first. */
  from: number | undefined;
  descending: boolean;
  need: number;
  budget: number;
  /** Read only the filter tuple (an `_offset` page skips most of what it reads). */
  tuples: boolean;
}

/**
 * One partition in id order (highest first when `descending`) from past `from`, `Limit`ed
 * by what is still missing plus what a filter dropped so far (so it grows only while items
 * are dropped), until `need` matches, its end, or `budget` items. A Query page also stops
 * at 1 MB (about 700 whole tickets): the follow-up asks for the rest only, so an offset read
 * costs offset + limit + 1 items at any partition size.
 */
async function readSource(
  source: ListSource<Partition>,
  { from, descending, need, budget, tuples }: ReadFrom,
  accept: (item: Item) => boolean | 'stop',
): Promise<SourceRead> {
  const matches: Item[] = [];
  let read = 0;
  let lastId = from ?? (descending ? Infinity : 0);
  let startKey: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(
          source.partition,
          from === undefined
            ? undefined
            : descending
              ? { before: keys.ticketSort(from) }
              : { after: keys.ticketSort(from) },
        ),
        ScanIndexForward: !descending,
        Limit: Math.min(budget - read, need - matches.length + (read - matches.length)),
        ...(tuples ? { ProjectionExpression: TUPLE_PROJECTION } : {}),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      read += 1;
      lastId = listedTicketId(item);
      const verdict = accept(item);
      // A type's tickets are all of its event: one of another event means none of them is listed.
      if (verdict === 'stop') return { matches, exhausted: true, lastId };
      if (verdict) matches.push(item);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && matches.length < need && read < budget);
  return { matches, exhausted: !startKey, lastId };
}

/**
 * The `window` ids (ascending) at the position `start` names, with the item read for each:
 * from its block's start skipping `skip` tuples, or, when the position lies in the block's
 * later half, down from the block's end (and up past it, in parallel, when the page runs
 * over the block's end), so a page skips at most half a block at any depth.
 */
export async function idsAt(
  query: TicketListQuery,
  counts: Counts,
  start: ListStart,
  window: number,
): Promise<{ pageIds: number[]; byId: Map<number, Item> }> {
  const block = start.block;
  if (!block || start.skip <= block.count / 2) {
    const read = await readPage({ ...query, limit: window }, counts, start, false);
    return { pageIds: read.ids.slice(start.skip, start.skip + window), byId: read.byId };
  }
  // The matches from the position to the block's end, read from that end down (tuples only: the page is batch-read).
  const tail = block.count - start.skip;
  const end = block.start + POSITION_BLOCK;
  const [down, up] = await Promise.all([
    readPage({ ...query, limit: tail - 1 }, counts, { after: end, skip: 0 }, true, true),
    tail < window
      ? readPage({ ...query, limit: window - tail }, counts, { after: end - 1, skip: 0 }, false)
      : undefined,
  ]);
  const pageIds = [...down.ids.slice(0, tail).reverse(), ...(up?.ids ?? [])].slice(0, window);
  return { pageIds, byId: new Map([...down.byId, ...(up?.byId ?? [])]) };
}

/**
 * The ids from `start` (after its id, or before it `descending`) through `skip + limit + 1`
 * matches, merged across the dimension's partitions in list order, with the item read for
 * each (only its filter tuple with `tuples`: an offset's skipped items); `more` when a
 * match follows the page, `complete` when every partition was read to its end.
 */
export async function readPage(
  query: TicketListQuery,
  counts: Counts,
  start: ListStart,
  descending: boolean,
  tuples = start.skip > 0,
) {
  const dims = candidates(query);
  // What reading each would scan. The included states' entries are merged from several partitions and batch-read
  // after: worth it only when the excluded states hold at least as many tickets as the included ones.
  const cost = (dim: Dimension) => (dim === 'state' ? 2 * counts.event.counted : counts[dim].all);
  const dimension = dims.reduce((best, dim) => (cost(dim) < cost(best) ? dim : best));
  const sources = sourcesOf(query, dimension, listKeys);
  const own = new Set(ownEvents(query));
  const need = start.skip + query.limit + 1;
  // Only an offset without kept positions skips more than a block: past the budget, say so before reading.
  if (need > LIST_READ_BUDGET) throw pastReadBound();
  const share = Math.max(need, Math.floor(LIST_READ_BUDGET / sources.length));
  const from = { from: start.after, descending, need, budget: share, tuples };
  const reads = await Promise.all(
    sources.map((source) =>
      readSource(source, from, (item) => {
        if (dimension === 'type' && !source.anyEvent && !own.has(Number(item.eventId))) return 'stop';
        return matchesList(tupleOf(item), query, source, own);
      }),
    ),
  );

  // Only ids up to the earliest point a partition stopped short (in list order) are surely all known.
  const open = reads.filter((read) => !read.exhausted);
  const before = (a: number, b: number) => (descending ? a > b : a < b);
  const cut = open.length ? open.map((read) => read.lastId).reduce((a, b) => (before(a, b) ? a : b)) : undefined;
  const byId = new Map<number, Item>();
  for (const item of reads.flatMap((read) => read.matches)) {
    const id = listedTicketId(item);
    const seen = byId.get(id);
    // A whole ticket beats an entry of it: it needs no batch read.
    if (
      (cut === undefined || id === cut || before(id, cut)) &&
      (!seen || (seen.entity !== 'Ticket' && item.entity === 'Ticket'))
    )
      byId.set(id, item);
  }
  const ids = [...byId.keys()].sort((a, b) => (descending ? b - a : a - b));
  // A partition stopped at its share before the page was known: the page would be short.
  if (cut !== undefined && ids.length < need) throw pastReadBound();
  return { ids, byId, more: ids.length > start.skip + query.limit, complete: cut === undefined };
}
