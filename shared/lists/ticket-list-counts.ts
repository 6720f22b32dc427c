import {
  ALL_EVENTS,
  besideOthers,
  countIsExact,
  grantingTypes,
  includedStates,
  MAX_LIST_SOURCES,
  ownEvents,
  pairsCounted,
  type TicketListFilter,
} from './ticket-list-plan.ts';
import type { AccessGrant } from '../events/domain/event.ts';
import { counterName } from './list-position-plan.ts';
import { PROCESS_STATES } from '../tickets/domain/ticket.ts';
import { batchGet } from '../data/client.ts';
import { countMap } from '../data/stored-items.ts';
import { grantsIntoAll } from '../events/data/events.ts';
import { keys } from '../data/keys.ts';
import { STATS_SHARDS } from '../tickets/data/stats-shards.ts';
import { ALL_EVENTS_COUNT, ALL_EVENTS_POSITION_SHARDS } from './list-positions.ts';
import { filterCount, readListCounts } from './ticket-stats.ts';

/**
 * The kept counts a ticket list reads (shared/lists/ticket-lists.ts): per dimension of the
 * filter, from the listed events' statistics shards (ticket-stats.ts), or the all-events
 * list's totals (list-positions.ts). They choose the Query and give the exact `totalCount`.
 */

type Item = Record<string, unknown>;

/** The statistics shards' counter names (`filterCount`) of each dimension of the filter, per state; each value once. */
function counterNames(filter: TicketListFilter) {
  const teams = [...new Set(filter.teams ?? [])];
  const types = [...new Set(filter.ticketTypes ?? [])];
  // The team × type pairs' counters, when the filter names both and few enough pairs to read.
  const paired = teams.length > 0 && types.length > 0 && pairsCounted(filter);
  const pairsOf = (state: number, name: (team: number, type: number, state: number) => string) =>
    paired ? teams.flatMap((team) => types.map((type) => name(team, type, state))) : [];
  return {
    team: (state: number) => teams.map((team) => filterCount.team(team, state)),
    type: (state: number) => types.map((type) => filterCount.type(type, state)),
    pair: (state: number) => pairsOf(state, filterCount.teamType),
    /** The granted tickets' counters of the filter's shape (in the access events' shards): all of them, or by team, type or pair. */
    access(state: number): string[] {
      if (!filter.accessEvents.length) return [];
      if (teams.length && types.length) return pairsOf(state, filterCount.accessTeamType);
      if (teams.length) return teams.map((team) => filterCount.accessTeam(team, state));
      if (types.length) return types.map((type) => filterCount.accessType(type, state));
      return [filterCount.access(state)];
    },
    /**
     * Beside other events (`besideOthers`): an access event's counters of the granting types
     * it counts (`grantingTypes` gives each type one access event), by team when the filter
     * names teams.
     */
    granted: (granted: readonly AccessGrant[]) => (eventId: number, state: number) =>
      granted
        .filter((grant) => grant.into === eventId)
        .flatMap(({ typeId }) =>
          teams.length
            ? teams.map((team) => filterCount.accessTeamType(team, typeId, state))
            : [filterCount.accessType(typeId, state)],
        ),
  };
}

/** The all-events list's live tickets per process state: its totals' items, one per shard (list-positions.ts), one batch read. */
async function countAllEvents(): Promise<Map<number, number>> {
  const shards = Array.from({ length: ALL_EVENTS_POSITION_SHARDS }, (_, shard) => shard);
  const items = await batchGet(shards.map((shard) => keys.listPosition(ALL_EVENTS, shard, ALL_EVENTS_COUNT, 0)));
  return new Map(
    PROCESS_STATES.map((state) => [
      state,
      items.reduce((sum, item) => sum + Number(item?.[counterName(state)] ?? 0), 0),
    ]),
  );
}

/** The kept counts of each dimension, over all states (`all`: what reading it costs) and over the included ones (`counted`). */
export async function countsOf(filter: TicketListFilter) {
  if (filter.allEvents) {
    const perState = await countAllEvents();
    const included = new Set(includedStates(filter));
    const all = [...perState.values()].reduce((sum, n) => sum + n, 0);
    const counted = [...perState].reduce((sum, [state, n]) => sum + (included.has(state) ? n : 0), 0);
    const none = { all: 0, counted: 0 };
    const grants = undefined;
    return { event: none, team: none, type: none, access: none, teamType: none, all: { all, counted }, grants };
  }
  const own = ownEvents(filter);
  const names = counterNames(filter);
  const everyState = (of: (state: number) => string[]) => PROCESS_STATES.flatMap(of);
  const [accessNames, pairNames] = [everyState(names.access), everyState(names.pair)];
  // The pairs' counters (up to 4 × MAX_COUNTED_PAIRS names) in a read of their own: one projection stays within
  // DynamoDB's 4 KB expressions. With pairs, the granted pairs' counters too, in a third read.
  const byPair = pairNames.length > 0;
  // Which types grant entry to the access events: how granted tickets by team are positioned, and, beside other
  // events, how they are counted (each granting type once).
  const beside = besideOthers(filter);
  const grantsWanted = filter.accessEvents.length > 0 && (beside || !!filter.teams?.length) && pairsCounted(filter);
  const [grants, ...reads] = await Promise.all([
    grantsWanted ? grantsIntoAll(filter.accessEvents, MAX_LIST_SOURCES) : undefined,
    readListCounts(own, [...everyState(names.team), ...everyState(names.type), ...(byPair ? [] : accessNames)]),
    byPair ? readListCounts(own, pairNames) : [],
    byPair && accessNames.length ? readListCounts(own, accessNames) : [],
  ]);
  const granted =
    beside && grants && countIsExact(filter, grants) ? names.granted(grantingTypes(filter, grants)) : undefined;
  const accessEvents = [...new Set(filter.accessEvents)];
  const grantedNames = granted ? accessEvents.flatMap((eventId) => everyState((state) => granted(eventId, state))) : [];
  const grantedRead = grantedNames.length ? await readListCounts(accessEvents, grantedNames) : [];
  const merged = new Map(reads[0].map((item) => [`${item.PK}|${item.SK}`, { ...item }]));
  for (const item of [...reads[1], ...reads[2], ...grantedRead])
    Object.assign(merged.get(`${item.PK}|${item.SK}`) ?? {}, item);
  const shards = [...merged.values()];
  const included = new Set(includedStates(filter));
  // Each access event's shards, by their partition keys (a shard is a partition of its own).
  const access = new Map(
    accessEvents.flatMap((eventId) =>
      Array.from({ length: STATS_SHARDS }, (_, shard) => [keys.eventStats(eventId, shard).PK, eventId] as const),
    ),
  );
  const sum = (pick: (item: Item, state: number) => number, onlyAccess = false) => {
    let all = 0;
    let counted = 0;
    for (const item of shards) {
      if (onlyAccess && !access.has(String(item.PK))) continue;
      for (const state of PROCESS_STATES) {
        const n = pick(item, state);
        all += n;
        if (included.has(state)) counted += n;
      }
    }
    return { all, counted };
  };
  const named = (of: (item: Item, state: number) => string[]) => (item: Item, state: number) =>
    of(item, state).reduce((total, name) => total + Number(item[name] ?? 0), 0);
  const inEvery = (of: (state: number) => string[]) => named((_, state) => of(state));
  return {
    event: sum((item, state) => countMap(item, 'listed', 'stats shard')[String(state)] ?? 0),
    team: sum(inEvery(names.team)),
    type: sum(inEvery(names.type)),
    // Beside other events without known grants: the access events' granted counts summed, an upper bound.
    access: granted
      ? sum(
          named((item, state) => granted(access.get(String(item.PK))!, state)),
          true,
        )
      : sum(inEvery(names.access), true),
    teamType: sum(inEvery(names.pair)),
    all: { all: 0, counted: 0 },
    grants,
  };
}

export type Counts = Awaited<ReturnType<typeof countsOf>>;

/** The exact `totalCount` from the kept counts, or undefined for a combination `countIsExact` refuses. */
export function countedOf(query: TicketListFilter, counts: Counts): number | undefined {
  if (query.allEvents) return counts.all.counted;
  if (!countIsExact(query, counts.grants)) return undefined;
  // The own events' tickets of the filter's shape, plus the granted ones of the same shape.
  if (query.teams?.length && query.ticketTypes?.length) return counts.teamType.counted + counts.access.counted;
  if (query.teams?.length) return counts.team.counted + counts.access.counted;
  if (query.ticketTypes?.length) return counts.type.counted + counts.access.counted;
  return counts.event.counted + counts.access.counted;
}

/**
 * About what part of the listed events' tickets the filter counts (`counted` of all their
 * tickets, granted ones included): how sparse its position blocks are. A hint for the first
 * read of them (list-positions.ts `startOfOffset`), not a count.
 */
export function shareOf(counts: Counts, counted: number): number {
  const all = counts.all.all || counts.event.all + counts.access.all;
  return all > 0 ? counted / all : 1;
}
