import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PROCESS_STATES, type TicketRecord } from '../domain/ticket.ts';
import {
  ALL_EVENTS,
  POSITION_BLOCK,
  blockOf,
  counterName,
  hasSpans,
  partsAddUp,
  positionCounters,
  SPAN_BLOCKS,
  spanList,
  spanOf,
  spanState,
  spanStates,
  teamList,
  type PositionList,
} from '../domain/ticket-list-plan.ts';
import { db, tableName } from './client.ts';
import { countersUpdate } from './counters.ts';
import { keys } from './keys.ts';
import { keyCondition, prefixRange } from './key-conditions.ts';
import { grantedEvents } from './ticket-list-entries.ts';

/**
 * Positions in the ticket lists, so that `_offset` costs the same at any depth. Per list
 * of an event (its own tickets `event`, a team's `team#<k>`, the tickets other events'
 * access packages grant into it `access`) and per block of POSITION_BLOCK ticket ids, an
 * item `EVENT#<id>` / `POS#<list>#<block:8>` counts the block's live tickets of that list
 * per process state (`s<state>`), and per ticket type too (`y<type>s<state>`): a type's list
 * is a part of the `event` and `access` blocks (so a change moves one item for both), and a
 * team × type pair a part of the team's. An event has a few types, so a block stays small;
 * teams can be thousands, a block would then hold a counter per team and cost several units
 * per write and read, so each team keeps its own blocks. The counts move in the ticket's own transaction, beside
 * the statistics shards (StatsDelta), so they are exact. An offset is then: sum the blocks
 * before it (one Query of these small items, from the nearer end), then read one block's
 * tickets from its start (shared/data/ticket-list-reads.ts `idsAt`). A page whose matches
 * are sparse reads only the blocks whose counts hold them (`blocksHolding`, `readByBlocks`).
 *
 * A team's tickets are spread over the whole event, so an offset deep into its list would sum
 * hundreds of its blocks. Its list also keeps spans (`span#team#<k>`, one item per SPAN_BLOCKS
 * blocks, ticket-list-plan.ts): the offset sums a few spans, then the blocks of one. A span
 * counts a checked-in ticket as an active one, so the gate's check-in moves none; a filter
 * keeping one of those two states and not the other is positioned by the blocks alone. An
 * event made before spans were kept has no `POS#span#kept` mark until the positions backfill
 * recounts them, and is positioned by its blocks alone until then.
 *
 * The list across all events is kept the same way under event 0 (ALL_EVENTS): list `all` by
 * id block, and its per-state totals in list `count`, one item per shard `id % COUNT_SHARDS`
 * (summing `all`'s blocks would read the whole platform).
 *
 * The current block of a busy list is a hot item during a sale, as the ticket type's `sold`
 * count already is; transactWrite retries the conflicts. The all-events block is that hot
 * item for every event selling at once: at about 1,000 ticket writes a second across the
 * platform it (and GSI3 `ALL_TICKETS`) wants write sharding, as GSI6 has.
 */

/** Items the all-events totals are spread over (a create in any event moves one). */
export const COUNT_SHARDS = 10;

/** Accumulates the position moves of one transaction: one Update per touched block item. */
export class PositionDelta {
  private readonly blocks = new Map<
    string,
    { eventId: number; list: string; block: number; counters: Map<string, number> }
  >();

  private add(eventId: number, list: string, block: number, counters: readonly string[], delta: number): void {
    const id = `${eventId}/${list}/${block}`;
    const entry = this.blocks.get(id) ?? { eventId, list, block, counters: new Map() };
    this.blocks.set(id, entry);
    for (const name of counters) entry.counters.set(name, (entry.counters.get(name) ?? 0) + delta);
  }

  /** A live ticket enters (+1) or leaves (-1) its event's and its team's list (their type parts too), its granted events' lists and the all-events list. */
  listedTicket(record: TicketRecord, delta: number): void {
    const state = record.processState;
    const block = blockOf(record.id);
    const whole = [counterName(state)];
    const withType = positionCounters(state, record.typeId);
    const team = teamList(record.teamId ?? 0);
    this.add(ALL_EVENTS, 'all', block, whole, delta);
    this.add(ALL_EVENTS, 'count', record.id % COUNT_SHARDS, whole, delta);
    this.add(record.eventId, 'event', block, withType, delta);
    this.add(record.eventId, team, block, withType, delta);
    // A check-in leaves and re-enters the same span counters: no Update.
    this.add(record.eventId, spanList(team), spanOf(block), positionCounters(spanState(state), record.typeId), delta);
    for (const eventId of grantedEvents(record)) this.add(eventId, 'access', block, withType, delta);
  }

  /** The Update actions of the blocks whose counts move (items are made by the first one). */
  actions() {
    return [...this.blocks.values()].flatMap(
      ({ eventId, list, block, counters }) =>
        countersUpdate(keys.listPosition(eventId, list, block), 'ListPosition', counters) ?? [],
    );
  }
}

type Item = Record<string, unknown>;

/** A block's tickets in `states`: the whole list's, or the sum of the given parts'. */
const countedIn = (item: Item, states: readonly number[], parts: readonly string[] = ['']) =>
  parts.reduce((sum, part) => sum + states.reduce((n, state) => n + Number(item[counterName(state, part)] ?? 0), 0), 0);

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
  /** Ticket ids one item counts: a block's, or a span's. */
  width?: number;
}

/**
 * The counted tickets per block (or span) of the lists together (only the given states; of
 * a list with parts, only theirs), read in block order from the start (`forward`) or the
 * end (or from block `from` on), until `enough` of them are summed or the lists end.
 * Several lists are each read until they pass `enough` on their own, which bounds each to
 * the blocks up to the position; `through` is the nearest block a list stopped at short of
 * its end. Undefined when a block's parts do not add up yet (`partsAddUp`).
 */
async function readBlocks(
  lists: readonly PositionList[],
  states: readonly number[],
  { forward, enough, share, from, width = POSITION_BLOCK }: BlockRead,
): Promise<{ counts: BlockCounts; through: number | undefined } | undefined> {
  const counts: BlockCounts = new Map();
  let partsKept = true;
  // The block each list stopped at short of its end: past the nearest of them, the counts are not all known.
  const stops: number[] = [];
  await Promise.all(
    lists.map(async ({ eventId, list, parts }) => {
      let summed = 0;
      let blocksRead = 0;
      // A list holding `share` of its items' tickets needs about enough / (width × share) items: ask for those
      // first, a tenth more when sparse (its items' counts vary around that mean), so one Query usually does.
      const expected = (enough + 1) / (width * share);
      let limit = Math.min(PAGE_BLOCKS, Math.ceil(share < 1 ? expected * 1.1 : expected) + 1);
      let startKey: Record<string, unknown> | undefined;
      let last: number | undefined;
      const prefix = keys.positionPrefix(list);
      const at = from === undefined ? undefined : keys.listPosition(eventId, list, from).SK;
      const range =
        at === undefined
          ? { beginsWith: prefix }
          : { between: forward ? ([at, prefixRange(prefix)[1]] as const) : ([prefix, at] as const) };
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName(),
            ...keyCondition(keys.eventItems(eventId), range),
            ScanIndexForward: forward,
            Limit: limit,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const block = Number(String(item.SK).slice(prefix.length));
          last = block;
          if (parts && !partsAddUp(item)) partsKept = false;
          const n = countedIn(item, states, parts);
          counts.set(block, (counts.get(block) ?? 0) + n);
          summed += n;
        }
        blocksRead += page.Items?.length ?? 0;
        // A sparse list (a team's tickets spread over the whole event): ask for what the density read so far says is
        // left, with a quarter more, so the position is reached in one more page rather than a doubling series.
        const perBlock = summed / Math.max(1, blocksRead);
        const left = perBlock > 0 ? Math.ceil(((enough + 1 - summed) / perBlock) * 1.25) + 1 : PAGE_BLOCKS;
        limit = Math.min(PAGE_BLOCKS, Math.max(limit, left));
        startKey = page.LastEvaluatedKey;
      } while (startKey && summed <= enough && partsKept);
      if (startKey && last !== undefined) stops.push(last);
    }),
  );
  if (!partsKept) return undefined;
  const through = stops.length ? (forward ? Math.min(...stops) : Math.max(...stops)) : undefined;
  return { counts, through };
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

/** Whether every event of the lists keeps spans (the mark its creation or the positions backfill set): one GetItem each. */
async function spansKept(lists: readonly PositionList[]): Promise<boolean> {
  const events = [...new Set(lists.map((list) => list.eventId))];
  const marks = await Promise.all(
    events.map((eventId) =>
      db.send(
        new GetCommand({ TableName: tableName(), Key: keys.positionSpansKept(eventId), ProjectionExpression: 'SK' }),
      ),
    ),
  );
  return marks.every((mark) => !!mark.Item);
}

/**
 * The span holding position `offset` of the union of team lists (`spanList`), read from the
 * nearer end, with the tickets before it; undefined for lists or states spans do not serve
 * (`hasSpans`, `spanStates`), or an event whose spans are not kept yet.
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
  const [kept, read] = await Promise.all([
    spansKept(lists),
    readBlocks(spans, counted, {
      forward,
      enough: forward ? offset : total - offset,
      share,
      width: POSITION_BLOCK * SPAN_BLOCKS,
    }),
  ]);
  const found = kept && read ? holding(read.counts, forward, offset, total) : undefined;
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
  });
  const within = ([block]: [number, number]) =>
    stretch.first === undefined || (block >= stretch.first && block <= stretch.last!);
  const counts = new Map([...(read?.counts ?? [])].filter(within));
  // Lists written before positions (or their parts) were kept, until bin/maintenance/backfill-list-positions.ts ran:
  // read from the start.
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
 * end); `kept` when any block item was there. Undefined when a block's parts do not add up
 * yet (`partsAddUp`).
 */
export async function blocksHolding(
  lists: readonly PositionList[],
  states: readonly number[],
  from: number | undefined,
  forward: boolean,
  enough: number,
  share: number,
): Promise<{ blocks: number[]; kept: boolean; through: number | undefined } | undefined> {
  const read = await readBlocks(lists, states, { forward, enough, share: Math.min(1, share), from });
  if (!read) return undefined;
  const { counts, through } = read;
  const known = (block: number) => through === undefined || (forward ? block <= through : block >= through);
  const blocks = [...counts]
    .filter(([block, n]) => n > 0 && known(block))
    .map(([block]) => block)
    .sort((a, b) => (forward ? a - b : b - a));
  return { blocks, kept: counts.size > 0, through };
}

/** Whether any of the lists has a position block (one written before they were kept has none until the backfill): one item per list. */
export async function positionsKept(lists: readonly PositionList[]): Promise<boolean> {
  const pages = await Promise.all(
    lists.map(({ eventId, list }) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.positionPrefix(list) }),
          Limit: 1,
        }),
      ),
    ),
  );
  return pages.some((page) => !!page.Items?.length);
}

/** The all-events list's live tickets per process state: its COUNT_SHARDS total items, one Query. */
export async function countAllEvents(): Promise<Map<number, number>> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(ALL_EVENTS), { beginsWith: keys.positionPrefix('count') }),
      Limit: COUNT_SHARDS,
    }),
  );
  return new Map(
    PROCESS_STATES.map((state) => [state, (Items ?? []).reduce((sum, item) => sum + countedIn(item, [state]), 0)]),
  );
}
