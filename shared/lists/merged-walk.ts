import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../data/client.ts';
import { keyAttributes, keyCondition, type Partition, type SortCondition } from '../data/key-conditions.ts';

/**
 * A walk of several index partitions that share one sort order (the portal's lists: events
 * by `<startsAt>#<id:10>`, orders by `<purchasedDate>#<id:10>`), merged into that order from
 * after a cursor's sort key, until `need` items are kept, every partition has ended, or
 * `budget` index items were read. Each partition is Queried lazily, in chunks, so a page
 * of a walk over many partitions reads about what it keeps, not `need` from each.
 */

export interface WalkSource {
  partition: Partition;
  /** Sort keys within [low, high] (inclusive, either open). */
  low?: string;
  high?: string;
  /** What is read of each item (its sort key always is). */
  projection?: { expression: string; names: Record<string, string> };
}

export interface Walked {
  sort: string;
  item: Record<string, unknown>;
}

export interface WalkOptions {
  need: number;
  budget: number;
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** The sort key after which the walk resumes (exclusive), in its direction. */
  after?: string;
  /** Whether an index item is kept (checked as read). */
  keep?: (item: Record<string, unknown>) => boolean;
  /** A batch of kept items checked further (a batch read): those that stay, in order. */
  confirm?: (batch: Walked[]) => Promise<Walked[]>;
  /**
   * Whether `confirm` may leave items out (default true): one that only reads each item's whole (an order list's
   * entries, shared/lists/orders.ts) keeps them all, so the walk reads what the page needs, not chunks.
   */
  confirmFilters?: boolean;
  /**
   * One item per sort key: of items of several partitions that share a sort key (adjacent in
   * the merge), only the first read is judged, from the first source listed on a tie.
   */
  distinct?: boolean;
  /**
   * The sources are one list's write shards (an item's shard from its id, shared/data/key-parts.ts INDEX_SHARDS), so
   * each holds about its share of any range: each chunk asks a shard for its share of what is still missing plus what
   * `keep` dropped so far, and a page reads about what it keeps rather than twice that.
   */
  evenly?: boolean;
}

export interface WalkRead {
  items: Walked[];
  /** Every partition was read to its end: nothing more matches. */
  complete: boolean;
  /** Index items read (the bound the portal's README rows report). */
  itemsRead: number;
  /** The sort key of the last item judged: every item of every partition up to it was judged (where a reader resumes). */
  lastSort?: string;
}

interface Stream {
  source: WalkSource;
  buffer: Walked[];
  startKey?: Record<string, unknown>;
  done: boolean;
  filled?: boolean;
  range?: SortCondition;
}

/** The sort condition of a source from the cursor on (inclusive: the cursor's own item is dropped as read); 'empty' when none is left. */
function rangeOf(
  source: WalkSource,
  after: string | undefined,
  descending: boolean,
): SortCondition | 'empty' | undefined {
  let { low, high } = source;
  if (after !== undefined && !descending && (low === undefined || after > low)) low = after;
  if (after !== undefined && descending && (high === undefined || after < high)) high = after;
  if (low !== undefined && high !== undefined) return low > high ? 'empty' : { between: [low, high] };
  return low !== undefined ? { from: low } : high !== undefined ? { to: high } : undefined;
}

export async function walkMerged(sources: readonly WalkSource[], options: WalkOptions): Promise<WalkRead> {
  const { need, budget, descending = false, after, keep, confirm, distinct = false, evenly = false } = options;
  const streams: Stream[] = sources.map((source) => {
    const range = rangeOf(source, after, descending);
    return { source, buffer: [], done: range === 'empty', range: range === 'empty' ? undefined : range };
  });
  const items: Walked[] = [];
  let itemsRead = 0;
  let pending: Walked[] = [];
  let lastSort: string | undefined;
  let judged = 0;
  const settle = async () => {
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    items.push(...(confirm ? await confirm(batch) : batch));
  };
  const filtered = keep !== undefined || (confirm !== undefined && options.confirmFilters !== false);
  const fill = async (stream: Stream, refills: number) => {
    const sortName = keyAttributes(stream.source.partition).sort;
    // The cursor's own item is read again (and dropped) by each partition's first Query.
    const wanted = need - items.length - pending.length + (after !== undefined && !stream.filled ? 1 : 0);
    stream.filled = true;
    // One partition unfiltered reads what the page needs; several share twice that, a filtered one reads on in chunks;
    // shards of one list each read their share of it (growing with what the filter dropped).
    const dropped = judged - items.length - pending.length;
    const share = evenly
      ? Math.ceil((wanted + dropped) / streams.length)
      : Math.max(Math.ceil((wanted * 2) / streams.length), filtered ? 50 : 1);
    const fair = Math.max(1, Math.floor((budget - itemsRead) / refills));
    const limit = Math.min(budget - itemsRead, fair, streams.length === 1 && !filtered && !evenly ? wanted : share);
    if (limit <= 0) return;
    itemsRead += limit; // reserved before the Query answers: streams filled at once share the budget
    const input: QueryCommandInput = {
      TableName: tableName(),
      ...keyCondition(stream.source.partition, stream.range),
      ScanIndexForward: !descending,
      Limit: limit,
      ExclusiveStartKey: stream.startKey,
    };
    if (stream.source.projection) {
      // The sort key is always read: it orders the merge and is where a cursor resumes.
      input.ProjectionExpression = `${stream.source.projection.expression}, #walkSort`;
      input.ExpressionAttributeNames = { ...stream.source.projection.names, '#walkSort': sortName };
    }
    const page = await db.send(new QueryCommand(input));
    const got = page.Items ?? [];
    itemsRead -= limit - got.length;
    stream.buffer.push(...got.map((item) => ({ sort: String(item[sortName]), item })));
    stream.startKey = page.LastEvaluatedKey;
    stream.done = !page.LastEvaluatedKey;
  };
  const before = (a: string, b: string) => (descending ? a > b : a < b);
  for (;;) {
    if (items.length + pending.length >= need) {
      await settle();
      if (items.length >= need) break;
      continue;
    }
    if (streams.some((stream) => !stream.buffer.length && !stream.done)) {
      await settle();
      if (items.length >= need || itemsRead >= budget) break;
      const empty = streams.filter((stream) => !stream.buffer.length && !stream.done);
      await Promise.all(empty.map((stream) => fill(stream, empty.length)));
      continue;
    }
    let next: Stream | undefined;
    for (const stream of streams)
      if (stream.buffer.length && (!next || before(stream.buffer[0]!.sort, next.buffer[0]!.sort))) next = stream;
    if (!next) {
      await settle();
      break;
    }
    const walked = next.buffer.shift()!;
    if (distinct && walked.sort === lastSort) continue;
    lastSort = walked.sort;
    judged += 1;
    if (walked.sort !== after && (!keep || keep(walked.item))) pending.push(walked);
  }
  const complete = streams.every((stream) => stream.done && !stream.buffer.length);
  return { items: items.slice(0, need), complete: complete && items.length <= need, itemsRead, lastSort };
}
