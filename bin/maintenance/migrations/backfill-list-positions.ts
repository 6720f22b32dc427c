/**
 * One-off, after the release that brought the kept list positions (issue 20), and again after
 * the one that made a ticket type's list a part of its event's and teams' blocks (README
 * "Data migrations"), and after the ones that brought the purchase counts
 * and the team lists' spans: sets every event's position blocks and spans (`EVENT#<id>` /
 * `POS#<list>#<block>`, `POS#span#team#<k>#<span>`, and the `POS#span#kept` mark that lets
 * offsets use the spans, see shared/data/list-positions.ts) and purchase counts (`BOUGHT#…`, its
 * types' `BOUGHT#type#…` too, and the `BOUGHT#month#kept` and `BOUGHT#types#kept` marks that let
 * `GET /ticket` use them, see shared/data/purchase-counts.ts) to a recount of its live tickets.
 * Migration 3 (catalogue.ts), after backfill-ticket-lists.ts (the `access` lists are recounted
 * from the list entries it writes).
 *
 * Idempotent: each block is Put whole with its recount (and blocks no ticket holds any more,
 * the former `type#<t>` blocks among them, are deleted), never added to, so a re-run repairs.
 * Resumable: events are done in id order and the last one finished is kept in the table
 * (`MAINTENANCE#backfill-list-positions` / `CHECKPOINT#<run>`, run `migration` from the
 * runner); a re-run goes on after it unless `restart`. The list across all events (event 0,
 * ALL_EVENTS: its `all` blocks and `count` shards) is recounted first, from the `LIST`
 * entries' GSI3, so run this after backfill-ticket-lists.ts has given them that key. A ticket
 * that moves while its event is being recounted may leave one block off by its move: run it in
 * a quiet hour, or re-run the event. Maintenance reads (a Scan for the event ids, each event's
 * list indexes to their end), never a request's.
 */
import { listTicketTypes } from '#shared/data/events';
import { keys, type PurchaseHolder } from '#shared/data/keys';
import { keyAttributes, type Partition } from '#shared/data/key-conditions';
import { COUNT_SHARDS } from '#shared/data/list-positions';
import { purchaseCounters } from '#shared/data/purchase-counts';
import { eventsMarked } from '#shared/data/ticket-list-queries';
import { ALL_EVENTS } from '#shared/domain/ticket-list-plan';
import {
  blockOf,
  counterName,
  positionCounters,
  spanList,
  spanOf,
  spanState,
  teamList,
} from '#shared/domain/list-positions';
import { checkpointOf, indexItems, recordIds, rewriteItems, type RunOptions, type Stopped } from './runs.ts';

export interface PositionBackfillOutcome extends Stopped {
  events: number;
  tickets: number;
  /** Position blocks written (recounted or set to zero). */
  blocks: number;
  /** Purchase counts written (recounted, marked kept, or deleted). */
  purchaseCounts: number;
}

type Item = Record<string, unknown>;
/** `<list>/<block>` → counter (`s<state>`, `y<type>s<state>`) → count, for one event. */
type Recount = Map<string, Map<string, number>>;

export interface PositionBackfillOptions extends RunOptions {
  /** Only these events (tests; a run for a few events; ALL_EVENTS for the list across events); default every event and that list. */
  events?: number[];
}

/** Backfills the events in id order, going on after the run's checkpoint unless `restart`. */
export async function backfillListPositions({
  events,
  run = 'all',
  restart = false,
  progress,
  stop,
}: PositionBackfillOptions = {}): Promise<PositionBackfillOutcome> {
  const all = (events ?? [ALL_EVENTS, ...(await recordIds('EVENT'))]).sort((a, b) => a - b);
  const checkpoint = checkpointOf('backfill-list-positions', run, 'lastEventId');
  // -1: before ALL_EVENTS (0), the first one done.
  const after = restart ? -1 : ((await checkpoint.last()) ?? -1);
  const todo = all.filter((eventId) => eventId > after);
  const outcome: PositionBackfillOutcome = { events: 0, tickets: 0, blocks: 0, purchaseCounts: 0 };
  for (const eventId of todo) {
    if (stop?.()) return { ...outcome, stopped: true };
    const recount: Recount = new Map();
    const add = (list: string, item: Item, block = blockOf(Number(item.ticketId ?? item.id)), withType = false) => {
      const key = `${list}/${block}`;
      const counters = recount.get(key) ?? new Map<string, number>();
      const state = Number(item.processState);
      const names = withType ? positionCounters(state, Number(item.typeId)) : [counterName(state)];
      for (const name of names) counters.set(name, (counters.get(name) ?? 0) + 1);
      recount.set(key, counters);
    };
    // A team's span counts a checked-in ticket as an active one (ticket-list-plan.ts `spanState`).
    const addToSpan = (list: string, item: Item) =>
      add(
        spanList(list),
        { ...item, processState: spanState(Number(item.processState)) },
        spanOf(blockOf(Number(item.ticketId ?? item.id))),
        true,
      );
    if (eventId === ALL_EVENTS) {
      for await (const item of indexItems(keys.allTickets, 'TicketListEntry')) {
        add('all', item);
        add('count', item, Number(item.ticketId) % COUNT_SHARDS);
      }
    }
    for await (const item of indexItems(keys.eventTickets(eventId), 'TicketEventEntry', 'Ticket')) {
      outcome.tickets += 1;
      add('event', item, undefined, true);
      add(teamList(Number(item.teamKey ?? 0)), item, undefined, true);
      addToSpan(teamList(Number(item.teamKey ?? 0)), item);
    }
    for await (const item of indexItems(keys.accessTickets(eventId), 'TicketAccessEntry'))
      add('access', item, undefined, true);
    outcome.blocks += await rewriteItems(keys.eventItems(eventId), keys.positionsPrefix, blockItems(eventId, recount));
    if (eventId !== ALL_EVENTS)
      outcome.purchaseCounts += await rewriteItems(
        keys.eventItems(eventId),
        keys.purchaseCountsPrefix,
        await purchaseCounts(eventId),
      );
    outcome.events += 1;
    await checkpoint.done(eventId);
    progress?.(all.length - todo.length + outcome.events, all.length);
  }
  return outcome;
}

type Counters = Map<string, number>;

/** The recounted blocks as items by sort key. */
function blockItems(eventId: number, recount: Recount): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const [key, counters] of recount) {
    const [list, block] = [key.slice(0, key.lastIndexOf('/')), Number(key.slice(key.lastIndexOf('/') + 1))];
    items.set(keys.listPosition(eventId, list, block).SK, { entity: 'ListPosition', ...Object.fromEntries(counters) });
  }
  // The spans now hold every team ticket: offsets may use them.
  if (eventId !== ALL_EVENTS) items.set(keys.positionSpansKept(eventId).SK, { entity: 'PositionSpansKept' });
  return items;
}

/**
 * The event's purchase counts recounted from its purchase index (shared/data/purchase-counts.ts),
 * and its types' from theirs once those hold every live ticket (backfill-ticket-lists.ts marks
 * that), with the marks that they hold every live ticket, as items by sort key.
 */
async function purchaseCounts(eventId: number): Promise<Map<string, Item>> {
  const counts = new Map<string, Counters>();
  const recount = async (holder: PurchaseHolder, partition: Partition) => {
    const sort = keyAttributes(partition).sort;
    for await (const item of indexItems(partition, 'TicketPurchaseEntry', 'Ticket')) {
      // `<purchase time>#<id:10>`
      for (const [key, counter] of purchaseCounters(holder, String(item[sort]).slice(0, -11))) {
        const counters = counts.get(key.SK) ?? new Map<string, number>();
        for (const name of ['n', counter]) counters.set(name, (counters.get(name) ?? 0) + 1);
        counts.set(key.SK, counters);
      }
    }
  };
  await recount({ eventId }, keys.eventPurchases(eventId));
  const typesListed = await eventsMarked('typePurchasesKept', [eventId]);
  if (typesListed)
    for (const type of await listTicketTypes(eventId))
      await recount({ eventId, typeId: type.id }, keys.typePurchases(type.id));
  const items = new Map<string, Item>(
    [...counts].map(([SK, counters]) => [SK, { entity: 'PurchaseCount', ...Object.fromEntries(counters) }]),
  );
  items.set(keys.purchaseCountsKept({ eventId }).SK, { entity: 'PurchaseCountsKept' });
  if (typesListed) items.set(keys.typePurchaseCountsKept(eventId).SK, { entity: 'PurchaseCountsKept' });
  return items;
}
