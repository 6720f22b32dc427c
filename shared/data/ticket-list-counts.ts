import {
  besideOthers,
  countIsExact,
  grantingTypes,
  includedStates,
  MAX_LIST_SOURCES,
  ownEvents,
  pairsCounted,
  type TicketListFilter,
} from '../domain/ticket-list-plan.ts';
import { PROCESS_STATES } from '../domain/ticket.ts';
import { grantsIntoAll } from './events.ts';
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
    return {
      event: none,
      team: none,
      type: none,
      access: none,
      teamType: none,
      all: { all, counted },
      grants: undefined,
    };
  }
  const own = ownEvents(filter);
  const teamNames = (filter.teams ?? []).flatMap((team) =>
    PROCESS_STATES.map((state) => filterCount.team(team, state)),
  );
  const typeNames = (filter.ticketTypes ?? []).flatMap((type) =>
    PROCESS_STATES.map((state) => filterCount.type(type, state)),
  );
  // The granted tickets' counter of the filter's shape (in the access events' shards): all of them, or by team, type or pair.
  const accessOf = (state: number): string[] => {
    if (!filter.accessEvents.length) return [];
    if (filter.teams?.length && filter.ticketTypes?.length) return pairsOf(state, filterCount.accessTeamType);
    if (filter.teams?.length) return [...new Set(filter.teams)].map((team) => filterCount.accessTeam(team, state));
    if (filter.ticketTypes?.length)
      return [...new Set(filter.ticketTypes)].map((type) => filterCount.accessType(type, state));
    return [filterCount.access(state)];
  };
  // The team × type pairs' counters, when the filter names both and few enough pairs to read.
  const pairsOf = (state: number, name: (team: number, type: number, state: number) => string) =>
    filter.teams?.length && filter.ticketTypes?.length && pairsCounted(filter)
      ? [...new Set(filter.teams)].flatMap((team) =>
          [...new Set(filter.ticketTypes)].map((type) => name(team, type, state)),
        )
      : [];
  const pairs = (state: number) => pairsOf(state, filterCount.teamType);
  const accessNames = PROCESS_STATES.flatMap(accessOf);
  const pairNames = PROCESS_STATES.flatMap(pairs);
  // The pairs' counters (up to 4 × MAX_COUNTED_PAIRS names) in a read of their own: one projection stays within DynamoDB's 4 KB expressions.
  // With pairs, the granted pairs' counters too, in a third read (up to 4 × MAX_COUNTED_PAIRS more names).
  const byPair = !!pairNames.length;
  // Which types grant entry to the access events: how granted tickets by team are positioned, and, beside other
  // events, how they are counted (each granting type once).
  const beside = besideOthers(filter);
  const grantsWanted = filter.accessEvents.length > 0 && (beside || !!filter.teams?.length) && pairsCounted(filter);
  const [grants, ...reads] = await Promise.all([
    grantsWanted ? grantsIntoAll(filter.accessEvents, MAX_LIST_SOURCES) : undefined,
    readListCounts(own, [...new Set([...teamNames, ...typeNames, ...(byPair ? [] : accessNames)])]),
    byPair ? readListCounts(own, pairNames) : [],
    byPair && accessNames.length ? readListCounts(own, accessNames) : [],
  ]);
  // Beside other events: per access event, the counters of the granting types it counts (each type with one of them).
  const granted = beside && grants && countIsExact(filter, grants) ? grantingTypes(filter, grants) : undefined;
  const grantedOf = (eventId: number, state: number): string[] =>
    (granted ?? [])
      .filter((grant) => grant.into === eventId)
      .flatMap(({ typeId }) =>
        filter.teams?.length
          ? [...new Set(filter.teams)].map((team) => filterCount.accessTeamType(team, typeId, state))
          : [filterCount.accessType(typeId, state)],
      );
  const grantedNames = filter.accessEvents.flatMap((eventId) =>
    PROCESS_STATES.flatMap((state) => grantedOf(eventId, state)),
  );
  const grantedRead = grantedNames.length ? await readListCounts(filter.accessEvents, grantedNames) : [];
  const merged = new Map(reads[0].map((item) => [`${item.PK}|${item.SK}`, { ...item }]));
  for (const item of [...reads[1], ...reads[2], ...grantedRead])
    Object.assign(merged.get(`${item.PK}|${item.SK}`) ?? {}, item);
  const shards = [...merged.values()];
  const included = new Set(includedStates(filter));
  const access = new Map(filter.accessEvents.map((eventId) => [keys.eventItems(eventId).value, eventId]));
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
  const named = (names: (state: number) => string[]) => (item: Item, state: number) =>
    names(state).reduce((total, name) => total + Number(item[name] ?? 0), 0);
  const grantedIn = (item: Item, state: number) =>
    named((s) => grantedOf(access.get(String(item.PK))!, s))(item, state);
  return {
    event: sum((item, state) => Number((item.listed as Record<string, number> | undefined)?.[String(state)] ?? 0)),
    team: sum(named((state) => (filter.teams ?? []).map((team) => filterCount.team(team, state)))),
    type: sum(named((state) => (filter.ticketTypes ?? []).map((type) => filterCount.type(type, state)))),
    // Beside other events without known grants: the access events' granted counts summed, an upper bound.
    access: granted ? sum(grantedIn, true) : sum(named(accessOf), true),
    teamType: sum(named(pairs)),
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
