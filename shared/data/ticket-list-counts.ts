import { countIsExact, includedStates, ownEvents, type TicketListFilter } from '../domain/ticket-list-plan.ts';
import { PROCESS_STATES } from '../domain/ticket.ts';
import { keys } from './keys.ts';
import { countAllEvents } from './list-positions.ts';
import { filterCount, readListCounts } from './ticket-stats.ts';

/**
 * The kept counts a ticket list reads (shared/data/ticket-lists.ts): per dimension of the
 * filter, from the listed events' statistics shards (ticket-stats.ts), or the all-events
 * list's totals (list-positions.ts). They choose the Query and give the exact `totalCount`.
 */

type Item = Record<string, unknown>;

/** The kept counts of each dimension, over all states (`all`: what reading it costs) and over the included ones (`counted`). */
export async function countsOf(filter: TicketListFilter) {
  if (filter.allEvents) {
    const perState = await countAllEvents();
    const included = new Set(includedStates(filter));
    const all = [...perState.values()].reduce((sum, n) => sum + n, 0);
    const counted = [...perState].reduce((sum, [state, n]) => sum + (included.has(state) ? n : 0), 0);
    const none = { all: 0, counted: 0 };
    return { event: none, team: none, type: none, access: none, teamType: none, all: { all, counted } };
  }
  const own = ownEvents(filter);
  const teamNames = (filter.teams ?? []).flatMap((team) => PROCESS_STATES.map((state) => filterCount.team(team, state)));
  const typeNames = (filter.ticketTypes ?? []).flatMap((type) => PROCESS_STATES.map((state) => filterCount.type(type, state)));
  const accessNames = filter.accessEvents.length ? PROCESS_STATES.map((state) => filterCount.access(state)) : [];
  // The team × type pairs' counters, when the filter names both and few enough pairs to read (countIsExact).
  const pairs = (state: number) => (filter.teams?.length && filter.ticketTypes?.length && countIsExact(filter)
    ? [...new Set(filter.teams)].flatMap((team) => [...new Set(filter.ticketTypes)].map((type) => filterCount.teamType(team, type, state)))
    : []);
  const pairNames = PROCESS_STATES.flatMap(pairs);
  // The pairs' counters (up to 4 × MAX_COUNTED_PAIRS names) in a read of their own: one projection stays within DynamoDB's 4 KB expressions.
  const [single, paired] = await Promise.all([
    readListCounts(own, [...new Set([...teamNames, ...typeNames, ...accessNames])]),
    pairNames.length ? readListCounts(own, pairNames) : [],
  ]);
  const merged = new Map(single.map((item) => [`${item.PK}|${item.SK}`, { ...item }]));
  for (const item of paired) Object.assign(merged.get(`${item.PK}|${item.SK}`) ?? {}, item);
  const shards = [...merged.values()];
  const included = new Set(includedStates(filter));
  const access = new Set(filter.accessEvents.map((eventId) => keys.eventPartition(eventId)));
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
  const named = (names: (state: number) => string[]) => (item: Item, state: number) => names(state).reduce((total, name) => total + Number(item[name] ?? 0), 0);
  return {
    event: sum((item, state) => Number((item.listed as Record<string, number> | undefined)?.[String(state)] ?? 0)),
    team: sum(named((state) => (filter.teams ?? []).map((team) => filterCount.team(team, state)))),
    type: sum(named((state) => (filter.ticketTypes ?? []).map((type) => filterCount.type(type, state)))),
    access: sum(named((state) => [filterCount.access(state)]), true),
    teamType: sum(named(pairs)),
    all: { all: 0, counted: 0 },
  };
}

export type Counts = Awaited<ReturnType<typeof countsOf>>;

/** The exact `totalCount` from the kept counts, or undefined for a combination `countIsExact` refuses. */
export function countedOf(query: TicketListFilter, counts: Counts): number | undefined {
  if (query.allEvents) return counts.all.counted;
  if (!countIsExact(query)) return undefined;
  if (query.teams?.length && query.ticketTypes?.length) return counts.teamType.counted;
  if (query.teams?.length) return counts.team.counted;
  if (query.ticketTypes?.length) return counts.type.counted;
  return counts.event.counted + counts.access.counted;
}

