import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  POSITION_BLOCK,
  countersOf,
  hasSpans,
  SPAN_BLOCKS,
  spanList,
  spanStates,
  type PositionList,
} from './list-position-plan.ts';
import { db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { keyCondition, prefixRange } from '../data/key-conditions.ts';
import { positionKey, positionPartitions } from './list-positions.ts';

/**
 * The reads of the kept list positions (list-positions.ts says what they are and how they
 * move): where an `_offset` page starts (`startOfOffset`, through a team list's spans), which
 * blocks hold a page of sparse matches (`blocksHolding`). The all-events totals are
 * ticket-list-counts.ts `countAllEvents`.
 */

type Item = Record<string, unknown>;

/** A block's tickets in the given counters (`countersOf` a list and its states). */
const countedIn = (item: Item, counters: readonly string[]) =>
  counters.reduce((sum, counter) => sum + Number(item[counter] ?? 0), 0);

/** Blocks read per Query page at most (items of about 60 bytes, a few hundred with an event's type counters). */
const PAGE_BLOCKS = 500;

type BlockCounts = Map<number, number>;

/** How a read of position items goes: from the start (`forward`) or the end, from block `from` on, until `enough` counted. */
interface BlockRead {
  forward: boolean;
  enough: number;
  /** About what part of its events' tickets the lists count: how sparse their items are (a hint). */
  share: number;
  from?: number;
  /** The block the read ends at (with `from`: the stretch it stays inside); the list's end when undefined. */
  to?: number;
  /** Ticket ids one item counts: a block's, or a span's. */
  width?: number;
}

/**
 * The counted tickets per block (or span) of the lists together (only the given states; of
 * a list with parts, only theirs), read in block order from the start (`forward`) or the
 * end (or from block `from` on), until `enough` of them are summed or the lists end.
 * Several lists are each read until they pass `enough` on their own, which bounds each to
 * the blocks up to the position; `through` is the nearest block a list stopped at short of
 * its end.
 */
async function readBlocks(
  lists: readonly PositionList[],
  states: readonly number[],
  read: BlockRead,
): Promise<{ counts: BlockCounts; through: number | undefined }> {
  const counts: BlockCounts = new Map();
  // The block each list stopped at short of its end: past the nearest of them, the counts are not all known.
  const stops: number[] = [];
  await Promise.all(
    lists.map(async (positions) => {
      const list = await readListBlocks(positions, countersOf(positions, states), read);
      for (const [block, n] of list.counts) counts.set(block, (counts.get(block) ?? 0) + n);
      if (list.stop !== undefined) stops.push(list.stop);
    }),
  );
  const through = stops.length ? (read.forward ? Math.min(...stops) : Math.max(...stops)) : undefined;
  return { counts, through };
}

/** One partition's read of a list's items: where it continues, the last block it read, whether it ended. */
interface PartitionRead {
  startKey?: Record<string, unknown>;
  last?: number;
  ended: boolean;
}

/**
 * One list's counted tickets per block (or span), from every partition holding its items (an
 * event's shards, list-positions.ts; a customer's one), read in step: each round Queries every
 * partition not yet ended, and a block counts as known once every partition has read past it
 * (or ended), so the counts summed are whole. Stops when the known blocks hold more than
 * `enough` or every partition ended; `stop` is the last known block when some did not.
 */
async function readListBlocks(
  positions: PositionList,
  counters: readonly string[],
  { forward, enough, share, from, to, width = POSITION_BLOCK }: BlockRead,
): Promise<{ counts: BlockCounts; stop: number | undefined }> {
  const { list } = positions;
  const prefix = keys.positionPrefix(list);
  const partitions = positionPartitions(positions);
  const reads: PartitionRead[] = partitions.map(() => ({ ended: false }));
  const counts: BlockCounts = new Map();
  // A list holding `share` of its items' tickets needs about enough / (width × share) items in each partition (an
  // event's shards each hold an item for about every block): ask for those first, a tenth more when sparse (its
  // items' counts vary around that mean), so one round usually does.
  const expected = (enough + 1) / (width * share);
  let limit = Math.min(PAGE_BLOCKS, Math.ceil(share < 1 ? expected * 1.1 : expected) + 1);
  const at = from === undefined ? undefined : positionKey(positions, list, from, 0).SK;
  // A list sparse in the stretch would otherwise read on past it for its own `enough`.
  const end = to === undefined ? (forward ? prefixRange(prefix)[1] : prefix) : positionKey(positions, list, to, 0).SK;
  const range =
    at === undefined ? { beginsWith: prefix } : { between: forward ? ([at, end] as const) : ([end, at] as const) };
  const known = (): number | undefined => {
    const open = reads.filter((read) => !read.ended).map((read) => read.last!);
    if (!open.length) return undefined;
    return forward ? Math.min(...open) : Math.max(...open);
  };
  const isKnown = (block: number, through: number | undefined) =>
    through === undefined || (forward ? block <= through : block >= through);
  for (;;) {
    await Promise.all(
      partitions.map(async (partition, i) => {
        const read = reads[i]!;
        if (read.ended) return;
        const page = await db.send(
          new QueryCommand({
            TableName: tableName(),
            ...keyCondition(partition, range),
            ScanIndexForward: forward,
            Limit: limit,
            ExclusiveStartKey: read.startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const block = Number(String(item.SK).slice(prefix.length));
          read.last = block;
          counts.set(block, (counts.get(block) ?? 0) + countedIn(item, counters));
        }
        read.startKey = page.LastEvaluatedKey;
        read.ended = !read.startKey || read.last === undefined;
      }),
    );
    const through = known();
    const whole = [...counts].filter(([block]) => isKnown(block, through));
    const summed = whole.reduce((sum, [, n]) => sum + n, 0);
    if (through === undefined || summed > enough) return { counts: new Map(whole), stop: through };
    // A sparse list (a team's tickets spread over the whole event): ask for what the density read so far says is
    // left, with a quarter more, so the position is reached in one more round rather than a doubling series.
    const perBlock = summed / Math.max(1, whole.length);
    const left = perBlock > 0 ? Math.ceil(((enough + 1 - summed) / perBlock) * 1.25) + 1 : PAGE_BLOCKS;
    limit = Math.min(PAGE_BLOCKS, Math.max(limit, left));
  }
}

/** Where a page at `offset` starts: after ticket id `after` (undefined: the list's start), skipping `skip` counted tickets. */
export interface ListStart {
  after: number | undefined;
  skip: number;
  /** From the kept positions: the block holding the position (its first id, its counted tickets), so it can be read from its nearer end. */
  block?: { start: number; count: number };
}

/** A stretch of the lists: `n` counted tickets after `before` others, in blocks `first` to `last` (all of them when undefined). */
interface Stretch {
  before: number;
  n: number;
  first?: number;
  last?: number;
}

/** The unit (block or span) holding position `at` of `total` counted tickets, from counts read from the nearer end, and the tickets before it. */
function holding(counts: BlockCounts, forward: boolean, at: number, total: number) {
  const units = [...counts.keys()].sort((a, b) => (forward ? a - b : b - a));
  // Forward: the tickets before each unit. Backward: from the end, `total - at` tickets lie at or after the position.
  let seen = 0;
  for (const unit of units) {
    const n = counts.get(unit)!;
    if (forward ? seen + n > at : seen + n >= total - at) return { unit, n, before: forward ? seen : total - seen - n };
    seen += n;
  }
  return undefined;
}

/**
 * The span holding position `offset` of the union of team lists (`spanList`), read from the
 * nearer end, with the tickets before it; undefined for lists or states spans do not serve
 * (`hasSpans`, `spanStates`).
 */
async function spanHolding(
  lists: readonly PositionList[],
  states: readonly number[],
  offset: number,
  total: number,
  share: number,
): Promise<Stretch | undefined> {
  const counted = spanStates(states);
  if (!counted || !lists.every(({ list }) => hasSpans(list))) return undefined;
  const forward = offset <= total / 2;
  const spans = lists.map((list) => ({ ...list, list: spanList(list.list) }));
  const read = await readBlocks(spans, counted, {
    forward,
    enough: forward ? offset : total - offset,
    share,
    width: POSITION_BLOCK * SPAN_BLOCKS,
  });
  const found = holding(read.counts, forward, offset, total);
  if (!found) return undefined;
  return {
    before: found.before,
    n: found.n,
    first: found.unit * SPAN_BLOCKS,
    last: (found.unit + 1) * SPAN_BLOCKS - 1,
  };
}

/**
 * The block holding position `offset` of the union of `lists` (`total` counted tickets, the
 * lists disjoint), found from whichever end is nearer: the tickets before that block are
 * summed from the counts, so only the rest of the offset is read as tickets (< one block
 * per list). Team lists first find the span holding it (`spanHolding`), then the block
 * from that span's nearer end. `share`: about what part of its events' tickets the filter
 * counts (a team's, the tickets not cancelled), so the first Query of a sparse list's
 * blocks asks for enough.
 */
export async function startOfOffset(
  lists: readonly PositionList[],
  states: readonly number[],
  offset: number,
  total: number,
  share = 1,
): Promise<ListStart> {
  if (offset === 0 || !lists.length) return { after: undefined, skip: offset };
  const sparse = Math.min(1, share);
  const stretch = (await spanHolding(lists, states, offset, total, sparse)) ?? { before: 0, n: total };
  const at = offset - stretch.before;
  const forward = at <= stretch.n / 2;
  const read = await readBlocks(lists, states, {
    forward,
    enough: forward ? at : stretch.n - at,
    share: sparse,
    from: forward ? stretch.first : stretch.last,
    to: forward ? stretch.last : stretch.first,
  });
  const within = ([block]: [number, number]) =>
    stretch.first === undefined || (block >= stretch.first && block <= stretch.last!);
  const counts = new Map([...read.counts].filter(within));
  // No block: nothing counted yet, read from the start.
  if (!counts.size) return { after: undefined, skip: offset };
  const found = holding(counts, forward, at, stretch.n);
  if (found) {
    const start = found.unit * POSITION_BLOCK;
    return {
      after: found.unit === 0 ? undefined : start - 1,
      skip: offset - stretch.before - found.before,
      block: { start, count: found.n },
    };
  }
  // Past the end (or the counts moved meanwhile): from the last block's start.
  const last = Math.max(...counts.keys());
  return {
    after: last === 0 ? undefined : last * POSITION_BLOCK - 1,
    skip: Math.max(0, offset - (stretch.before + stretch.n - counts.get(last)!)),
  };
}

/**
 * The blocks holding counted tickets of the lists together, in list order from block `from`
 * (the lists' start when undefined; down from it when not `forward`), until about `enough`
 * of them: for a page whose matches are sparse, which blocks to read. Only the blocks up to
 * where every list's counts are known (`through`; undefined when each list was read to its
 * end).
 */
export async function blocksHolding(
  lists: readonly PositionList[],
  states: readonly number[],
  from: number | undefined,
  forward: boolean,
  enough: number,
  share: number,
): Promise<{ blocks: number[]; through: number | undefined }> {
  const { counts, through } = await readBlocks(lists, states, { forward, enough, share: Math.min(1, share), from });
  const known = (block: number) => through === undefined || (forward ? block <= through : block >= through);
  const blocks = [...counts]
    .filter(([block, n]) => n > 0 && known(block))
    .map(([block]) => block)
    .sort((a, b) => (forward ? a - b : b - a));
  return { blocks, through };
}
