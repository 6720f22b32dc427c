import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  candidates,
  includedStates,
  LIST_READ_BUDGET,
  matchesList,
  ownEvents,
  pastReadBound,
  positionLists,
  sourcesOf,
  type Dimension,
  type ListSource,
  type ListTuple,
  type TicketListQuery,
} from './ticket-list-plan.ts';
import { blockOf, POSITION_BLOCK } from './list-position-plan.ts';
import { db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { keyCondition, type Partition, type SortCondition } from '../data/key-conditions.ts';
import { blocksHolding, type ListStart } from './list-position-reads.ts';
import { countedOf, shareOf, type Counts } from './ticket-list-counts.ts';
import { listedTicketId } from '../tickets/data/ticket-records.ts';
import { listShards, readShards } from './ticket-list-shards.ts';

/**
 * The reads behind a ticket list's page (shared/lists/ticket-lists.ts): each partition of the
 * chosen dimension Queried in id order from where the page starts, merged, filtered by the
 * rest of the filter, and bounded by LIST_READ_BUDGET.
 */

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
  /** Items read. */
  read: number;
}

/** What an offset read keeps of each item it skips: the filter tuple and the id (no `entity`: the page is batch-read whole). */
const TUPLE_PROJECTION = 'id, ticketId, eventId, typeId, teamKey, processState';

interface ReadFrom {
  /** Exclusive: after this id (before it, `descending`); undefined from the list's end that comes first. */
  from: number | undefined;
  /** Inclusive, with `from`: up to this id (down to it, `descending`); undefined to the list's end. */
  to?: number;
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
  source: ListSource<Partition[]>,
  bounds: ReadFrom,
  accept: (item: Item) => boolean | 'stop',
): Promise<SourceRead> {
  if (source.partition.length > 1)
    return readShards(
      source.partition,
      { ...bounds, projection: bounds.tuples ? TUPLE_PROJECTION : undefined },
      (item) => accept(item) === true,
    );
  const { from, to, descending, need, budget, tuples } = bounds;
  const matches: Item[] = [];
  let read = 0;
  let lastId = from ?? (descending ? Infinity : 0);
  let startKey: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(source.partition[0]!, idRange(from, to, descending)),
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
      if (verdict === 'stop') return { matches, exhausted: true, lastId, read };
      if (verdict) matches.push(item);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && matches.length < need && read < budget);
  return { matches, exhausted: !startKey, lastId, read };
}

/** The key condition of the ids after `from` (before it, descending) through `to`. */
function idRange(from: number | undefined, to: number | undefined, descending: boolean): SortCondition | undefined {
  if (from === undefined) return undefined;
  if (to !== undefined) {
    const [low, high] = descending ? [to, from - 1] : [from + 1, to];
    return { between: [keys.ticketSort(low), keys.ticketSort(high)] };
  }
  return descending ? { before: keys.ticketSort(from) } : { after: keys.ticketSort(from) };
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
  const plan = planOf(query, counts);
  const need = start.skip + query.limit + 1;
  // Only an offset without kept positions skips more than a block: past the budget, say so before reading.
  if (need > LIST_READ_BUDGET) throw pastReadBound();
  // Matches so sparse in the serving partitions that the page would not be found within the budget: read their blocks only.
  const counted = countedOf(query, counts);
  if (counted !== undefined && need * plan.scanned > LIST_READ_BUDGET * counted && positionLists(query, counts.grants))
    return readByBlocks(query, counts, plan, start, descending, tuples);
  const share = Math.max(need, Math.floor(LIST_READ_BUDGET / plan.sources.length));
  const from = { from: start.after, descending, need, budget: share, tuples };
  const reads = await Promise.all(plan.sources.map((source) => readSource(source, from, plan.accept(source))));

  // Only ids up to the earliest point a partition stopped short (in list order) are surely all known.
  const open = reads.filter((read) => !read.exhausted);
  const before = (a: number, b: number) => (descending ? a > b : a < b);
  const cut = open.length ? open.map((read) => read.lastId).reduce((a, b) => (before(a, b) ? a : b)) : undefined;
  const byId = new Map<number, Item>();
  keepMatches(byId, reads, (id) => cut === undefined || id === cut || before(id, cut));
  const ids = [...byId.keys()].sort((a, b) => (descending ? b - a : a - b));
  // A partition stopped at its share before the page was known: only the blocks holding matches can fill it.
  if (cut !== undefined && ids.length < need) return readByBlocks(query, counts, plan, start, descending, tuples);
  return { ids, byId, more: ids.length > start.skip + query.limit, complete: cut === undefined };
}

type Plan = ReturnType<typeof planOf>;

/** The dimension that serves the page (the one whose partitions hold the fewest tickets), its partitions, and the filter on what they hold. */
function planOf(query: TicketListQuery, counts: Counts) {
  const dims = candidates(query);
  // What reading each would scan. The included states' entries are merged from several partitions and batch-read
  // after: worth it only when the excluded states hold at least as many tickets as the included ones.
  const cost = (dim: Dimension) => (dim === 'state' ? 2 * counts.event.counted : counts[dim].all);
  const dimension = dims.reduce((best, dim) => (cost(dim) < cost(best) ? dim : best));
  const own = new Set(ownEvents(query));
  const accept =
    (source: ListSource<Partition[]>) =>
    (item: Item): boolean | 'stop' => {
      if (dimension === 'type' && !source.anyEvent && !own.has(Number(item.eventId))) return 'stop';
      return matchesList(tupleOf(item), query, source, own);
    };
  // What the serving partitions hold (the access events' granted entries are read whole): read to find `counted` matches.
  const scanned = (dimension === 'state' ? counts.event.counted : counts[dimension].all) + counts.access.all;
  return { dimension, sources: sourcesOf(query, dimension, listShards), accept, scanned };
}

/** Adds the reads' matches whose ids `keep` allows, each id once: a whole ticket beats an entry of it (it needs no batch read). */
function keepMatches(byId: Map<number, Item>, reads: readonly SourceRead[], keep: (id: number) => boolean): void {
  for (const item of reads.flatMap((read) => read.matches)) {
    const id = listedTicketId(item);
    const seen = byId.get(id);
    if (keep(id) && (!seen || (seen.entity !== 'Ticket' && item.entity === 'Ticket'))) byId.set(id, item);
  }
}

/** Index items a sparse page may read (its matches' blocks, each serving partition within each block). */
const SPARSE_READ_BUDGET = 5 * LIST_READ_BUDGET;
/** Block reads sent at once (each at most one block's ids of one partition). */
const BLOCK_READS_AT_ONCE = 32;
/** Rounds of block reads one page makes at most. */
const MAX_BLOCK_ROUNDS = 10;

/**
 * A page whose matches are too sparse in the partitions that serve it to be found within
 * one bounded read (a rare team × type pair, a type among an access event's granted
 * tickets): the kept positions say which blocks of ids hold matches, and only those are
 * read, each serving partition within each block (at most a block's ids), so the page costs
 * what its matches' blocks hold, at any depth. A 400 when the filter keeps no positions or
 * those blocks hold more than SPARSE_READ_BUDGET items.
 */
async function readByBlocks(
  query: TicketListQuery,
  counts: Counts,
  plan: Plan,
  start: ListStart,
  descending: boolean,
  tuples: boolean,
) {
  const lists = positionLists(query, counts.grants);
  const counted = countedOf(query, counts);
  if (!lists || counted === undefined) throw pastReadBound();
  const need = start.skip + query.limit + 1;
  const byId = new Map<number, Item>();
  // Exclusive: after this id (before it, descending); each round moves it past the blocks whose counts it read.
  let after = start.after;
  let itemsRead = 0;
  let ended = false;
  // From the list's start every match lies ahead: once all `counted` are found, no block is left to read.
  const wanted = Math.min(need, start.after === undefined ? counted : need);
  for (let round = 0; byId.size < wanted && !ended; round++) {
    if (round === MAX_BLOCK_ROUNDS) throw pastReadBound();
    const from = after === undefined ? undefined : blockOf(descending ? after - 1 : after + 1);
    // Blocks until they hold the matches still wanted (`enough` is passed, not reached, hence the 1).
    const enough = wanted - byId.size - 1;
    const found = await blocksHolding(
      lists,
      includedStates(query),
      from,
      !descending,
      enough,
      shareOf(counts, counted),
    );
    const blocks = found.blocks.slice(0, Math.max(1, Math.floor(BLOCK_READS_AT_ONCE / plan.sources.length)));
    const reads = await Promise.all(
      blocks.flatMap((block) =>
        plan.sources.map((source) => {
          const first = block * POSITION_BLOCK;
          const last = first + POSITION_BLOCK - 1;
          const range = descending
            ? { from: Math.min(last + 1, after ?? last + 1), to: first }
            : { from: Math.max(first - 1, after ?? first - 1), to: last };
          const bounds = { ...range, descending, need: POSITION_BLOCK, budget: POSITION_BLOCK, tuples };
          return readSource(source, bounds, plan.accept(source));
        }),
      ),
    );
    itemsRead += reads.reduce((sum, read) => sum + read.read, 0);
    if (itemsRead > SPARSE_READ_BUDGET) throw pastReadBound();
    keepMatches(byId, reads, () => true);
    // The next round starts past the last block read when some were left for it, else past what the counts covered.
    const past = blocks.length < found.blocks.length ? blocks.at(-1) : found.through;
    if (past === undefined) ended = true;
    else after = descending ? past * POSITION_BLOCK : past * POSITION_BLOCK + POSITION_BLOCK - 1;
  }
  const ids = [...byId.keys()].sort((a, b) => (descending ? b - a : a - b));
  return {
    ids,
    byId,
    more: ids.length > start.skip + query.limit,
    complete: ended || (start.after === undefined && ids.length >= counted),
  };
}
