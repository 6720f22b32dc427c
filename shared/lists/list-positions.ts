import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { ALL_EVENTS } from './ticket-list-plan.ts';
import {
  blockOf,
  counterName,
  CUSTOMER_COUNTER,
  CUSTOMER_LIST,
  positionCounters,
  spanList,
  spanOf,
  spanState,
  teamList,
  type PositionHolder,
} from './list-position-plan.ts';
import { countersUpdate } from '../data/counters.ts';
import { keys } from '../data/keys.ts';
import { grantedEvents } from './ticket-list-entries.ts';
import { shardAmong, STATS_SHARDS } from '../tickets/data/stats-shards.ts';

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
 * before it (one Query of these small items, from the nearer end: list-position-reads.ts
 * `startOfOffset`), then read one block's tickets from its start (ticket-list-reads.ts
 * `idsAt`). A page whose matches are sparse reads only the blocks whose counts hold them
 * (`blocksHolding`, `readByBlocks`).
 *
 * A team's tickets are spread over the whole event, so an offset deep into its list would sum
 * hundreds of its blocks. Its list also keeps spans (`span#team#<k>`, one item per SPAN_BLOCKS
 * blocks, ticket-list-plan.ts): the offset sums a few spans, then the blocks of one. A span
 * counts a checked-in ticket as an active one, so the gate's check-in moves none; a filter
 * keeping one of those two states and not the other is positioned by the blocks alone.
 *
 * A customer's tickets across events (`GET /ticket?customerId=`) are kept the same way under
 * the customer (`CUSTOMER#<id>` / `POS#tickets#<block:8>`, and spans), counting every live
 * ticket in one counter whatever its state (CUSTOMER_LIST), so only a sale, a delete or a
 * ticket changing customer moves them. A customer's orders are runs of ids, so their spans are few; one holding a single ticket in
 * each of thousands of 2,000-id spans would have an offset sum up to half of those spans.
 *
 * The list across all events is kept the same way under event 0 (ALL_EVENTS): list `all` by
 * id block, and its per-state totals in list `count`, one item per shard (summing `all`'s blocks
 * would read the whole platform).
 *
 * An event's items are sharded (POSITION_SHARDS): the current block of a busy list would
 * otherwise be one item every sale of the event writes. Event 0's shards are written by the
 * sales of every event (shared/lists/README.md says what that costs and what is left).
 */

/** The list holding the all-events totals per state under event 0: one item per shard. */
export const ALL_EVENTS_COUNT = 'count';

/**
 * The shards an event's position items are kept in: a ticket's blocks in the shard of its run of ids (`shardAmong`),
 * each shard a partition of its own (`TICKET_POSITIONS#<eventId>#<shard>`), so the current block of a
 * list is not one item every sale writes. An on-sale of 600 tickets a second moves each shard's
 * current block at most 600 / 16 = 37.5 times a second (an order's consecutive ids mostly share a
 * shard: once for the order), under the ~50 transactions a second one item takes. A read sums the shards' items of
 * each block (list-position-reads.ts reads them in step). A customer's are one partition: one
 * customer buys at a human pace.
 */
export const POSITION_SHARDS = STATS_SHARDS;
/**
 * Event 0's (the list across events) are kept in groups of POSITION_SHARDS shards, a ticket's group chosen by its
 * event (`eventId % ALL_EVENTS_GROUPS`), so no item of them is written by the sales of every event: two events on
 * sale at once, each at 600 tickets a second, move each shard of their group at most 600 / 16 = 37.5 times a second
 * (both in one group: 1,200 / 16 = 75 writes, in about half as many transactions, an order's tickets mostly sharing
 * a shard), as an event's own shards. A read sums every group's shards, as it sums an event's.
 */
export const ALL_EVENTS_GROUPS = 2;
export const ALL_EVENTS_POSITION_SHARDS = ALL_EVENTS_GROUPS * POSITION_SHARDS;

/** How many shards hold the position items of an event (a customer's are one partition). */
const shardsOf = (holder: PositionHolder): number =>
  'customerId' in holder ? 1 : holder.eventId === ALL_EVENTS ? ALL_EVENTS_POSITION_SHARDS : POSITION_SHARDS;

/** The shard of a holder's position items a ticket is counted in: in event 0's, within its own event's group. */
const positionShardOf = (holder: PositionHolder, ticket: Pick<TicketRecord, 'id' | 'eventId'>): number =>
  'eventId' in holder && holder.eventId === ALL_EVENTS
    ? (ticket.eventId % ALL_EVENTS_GROUPS) * POSITION_SHARDS + shardAmong(ticket.id, POSITION_SHARDS)
    : shardAmong(ticket.id, shardsOf(holder));

/** The partitions holding a list's position items: its event's shards, or its customer's one. */
export const positionPartitions = (holder: PositionHolder) =>
  'customerId' in holder
    ? [keys.customerItems(holder.customerId)]
    : Array.from({ length: shardsOf(holder) }, (_, shard) => keys.eventPositions(holder.eventId, shard));

/** One block's (or span's) item of a list (in an event's shard `shard`; a customer's has one). */
export const positionKey = (holder: PositionHolder, list: string, block: number, shard: number) =>
  'customerId' in holder
    ? keys.customerPosition(holder.customerId, list, block)
    : keys.listPosition(holder.eventId, shard, list, block);

/** One position item a live ticket is counted in, and the counters it adds there. */
export interface PositionPlace {
  holder: PositionHolder;
  list: string;
  block: number;
  shard: number;
  counters: readonly string[];
}

/**
 * Every position item a live ticket is counted in: its event's and its team's lists (their type parts too), its team's
 * span, its granted events' lists, the all-events list and totals, its customer's list and span.
 */
export function positionPlaces(record: PositionedTicket): PositionPlace[] {
  const state = record.processState;
  const block = blockOf(record.id);
  const whole = [counterName(state)];
  const withType = positionCounters(state, record.typeId);
  const team = teamList(record.teamId ?? 0);
  const all = { eventId: ALL_EVENTS };
  const own = { eventId: record.eventId };
  const places: [PositionHolder, string, number, readonly string[]][] = [
    [all, 'all', block, whole],
    // The all-events totals: one item per shard (block 0 of list `count`), summed on read.
    [all, ALL_EVENTS_COUNT, 0, whole],
    [own, 'event', block, withType],
    [own, team, block, withType],
    // A check-in leaves and re-enters the same span counters: no Update.
    [own, spanList(team), spanOf(block), positionCounters(spanState(state), record.typeId)],
    ...grantedEvents(record).map((eventId): [PositionHolder, string, number, string[]] => [
      { eventId },
      'access',
      block,
      withType,
    ]),
  ];
  if (record.customerId != null) {
    const customer = { customerId: record.customerId };
    places.push([customer, CUSTOMER_LIST, block, [CUSTOMER_COUNTER]]);
    places.push([customer, spanList(CUSTOMER_LIST), spanOf(block), [CUSTOMER_COUNTER]]);
  }
  return places.map(([holder, list, at, counters]) => ({
    holder,
    list,
    block: at,
    shard: positionShardOf(holder, record),
    counters,
  }));
}

/** What a ticket's positions depend on: a record, or what its stored list entries say it was (list-catch-up.ts). */
export type PositionedTicket = Pick<
  TicketRecord,
  'id' | 'eventId' | 'typeId' | 'teamId' | 'processState' | 'customerId' | 'accessEvents'
>;

/** Whether a place is the all-events totals (a `totalCount`, moved in the change's own transaction). */
export const isTotal = (place: Pick<PositionPlace, 'list'>): boolean => place.list === ALL_EVENTS_COUNT;

/**
 * Accumulates blind position moves: one Update per touched block item. `totals` keeps only the all-events totals
 * (a change's transaction: the blocks are the stream's consumer's, list-catch-up.ts); `blocks` all but them (the
 * scale seed's stand-in for the consumer); `every` all of them (a bulk load, which writes the list entries itself).
 */
export class PositionDelta {
  private readonly blocks = new Map<
    string,
    { holder: PositionHolder; list: string; block: number; shard: number; counters: Map<string, number> }
  >();

  constructor(private readonly kept: 'totals' | 'blocks' | 'every') {}

  /** A live ticket enters (+1) or leaves (-1) its lists' positions. */
  listedTicket(record: PositionedTicket, delta: number): void {
    for (const place of positionPlaces(record)) {
      if ((this.kept === 'totals' && !isTotal(place)) || (this.kept === 'blocks' && isTotal(place))) continue;
      const { PK, SK } = positionKey(place.holder, place.list, place.block, place.shard);
      const id = `${PK}/${SK}`;
      const entry = this.blocks.get(id) ?? { ...place, counters: new Map() };
      this.blocks.set(id, entry);
      for (const name of place.counters) entry.counters.set(name, (entry.counters.get(name) ?? 0) + delta);
    }
  }

  /** The Update actions of the blocks whose counts move (items are made by the first one). */
  actions() {
    return this.byHolder().map(({ action }) => action);
  }

  /** The same, each saying whether it is a customer's block (else an event's). */
  byHolder() {
    return [...this.blocks.values()].flatMap(({ holder, list, block, shard, counters }) => {
      const action = countersUpdate(positionKey(holder, list, block, shard), 'ListPosition', counters);
      return action ? [{ action, customer: 'customerId' in holder }] : [];
    });
  }
}
