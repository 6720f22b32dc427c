import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PROCESS_STATES, type TicketRecord } from '../domain/ticket.ts';
import {
  ALL_EVENTS,
  POSITION_BLOCK,
  blockOf,
  counterName,
  partsAddUp,
  teamList,
  typePart,
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
    const withType = [...whole, counterName(state, typePart(record.typeId))];
    this.add(ALL_EVENTS, 'all', block, whole, delta);
    this.add(ALL_EVENTS, 'count', record.id % COUNT_SHARDS, whole, delta);
    this.add(record.eventId, 'event', block, withType, delta);
    this.add(record.eventId, teamList(record.teamId ?? 0), block, withType, delta);
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

/**
 * The counted tickets per block of the lists together (only the given states; of a list
 * with parts, only theirs), read in block order from the start (`forward`) or the end (or
 * from block `from` on), until `enough` of them are summed or the lists end. Several lists
 * are each read until they pass `enough` on their own, which bounds each to the blocks up to
 * the position; `through` is the nearest block a list stopped at short of its end. Undefined
 * when a block's parts do not add up yet (`partsAddUp`).
 */
async function readBlocks(
  lists: readonly PositionList[],
  states: readonly number[],
  forward: boolean,
  enough: number,
  share: number,
  from?: number,
): Promise<{ counts: BlockCounts; through: number | undefined } | undefined> {
  const counts: BlockCounts = new Map();
  let partsKept = true;
  // The block each list stopped at short of its end: past the nearest of them, the counts are not all known.
  const stops: number[] = [];
  await Promise.all(
    lists.map(async ({ eventId, list, parts }) => {
      let summed = 0;
      let blocksRead = 0;
      // A list holding `share` of its blocks' tickets needs about enough / (POSITION_BLOCK × share) blocks: ask for
      // those first, a tenth more when sparse (its blocks' counts vary around that mean), so one Query usually does.
      const expected = (enough + 1) / (POSITION_BLOCK * share);
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

/**
 * The block holding position `offset` of the union of `lists` (`total` counted tickets, the
 * lists disjoint), found from whichever end is nearer: the tickets before that block are
 * summed from the counts, so only the rest of the offset is read as tickets (< one block
 * per list). `share`: about what part of its events' tickets the filter counts (a team's,
 * the tickets not cancelled), so the first Query of a sparse list's blocks asks for enough.
 */
export async function startOfOffset(
  lists: readonly PositionList[],
  states: readonly number[],
  offset: number,
  total: number,
  share = 1,
): Promise<ListStart> {
  if (offset === 0 || !lists.length) return { after: undefined, skip: offset };
  const forward = offset <= total / 2;
  const counts = (await readBlocks(lists, states, forward, forward ? offset : total - offset, Math.min(1, share)))
    ?.counts;
  // Lists written before positions (or their parts) were kept, until bin/maintenance/backfill-list-positions.ts ran:
  // read from the start.
  if (!counts?.size) return { after: undefined, skip: offset };
  const blocks = [...counts.keys()].sort((a, b) => (forward ? a - b : b - a));
  // Forward: the tickets before each block. Backward: from the end, `total - offset` tickets lie at or after the position.
  let seen = 0;
  for (const block of blocks) {
    const n = counts.get(block)!;
    if (forward ? seen + n > offset : seen + n >= total - offset) {
      const before = forward ? seen : total - seen - n;
      return {
        after: block === 0 ? undefined : block * POSITION_BLOCK - 1,
        skip: offset - before,
        block: { start: block * POSITION_BLOCK, count: n },
      };
    }
    seen += n;
  }
  // Past the end (or the counts moved meanwhile): from the last block's start.
  const last = blocks.length ? Math.max(...blocks) : 0;
  return {
    after: last === 0 ? undefined : last * POSITION_BLOCK - 1,
    skip: Math.max(0, offset - (total - (counts.get(last) ?? 0))),
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
  const read = await readBlocks(lists, states, forward, enough, Math.min(1, share), from);
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
