import { ValidationError } from '../errors.ts';
import type { AccessGrant } from '../events/domain/event.ts';
import { teamList, typePart, type EventPositionList } from './list-position-plan.ts';
import { PROCESS_STATES } from '../tickets/domain/ticket.ts';

/**
 * `GET /tickets`, pure: which key serves the page (the most selective filter by its kept
 * count), which filters are applied to what that Query reads, the read bounds, the cursor
 * and when `totalCount` is exact. The reads are in shared/lists/ticket-lists.ts and
 * ticket-list-reads.ts; the OpenAPI description of GET /tickets states the same rules to
 * clients.
 */

/** Index items one page reads at most (all sources together; at least what the page needs per source). */
export const LIST_READ_BUDGET = 2000;
/** Partitions one page may Query; a filter needing more is applied to a broader read instead. */
export const MAX_LIST_SOURCES = 60;

export interface TicketListFilter {
  events: number[];
  accessEvents: number[];
  /** Every event's tickets (an unscoped caller named none): the all-events list, with `excludeProcessStates` only. */
  allEvents?: boolean;
  teams?: number[];
  ticketTypes?: number[];
  excludeProcessStates?: number[];
}

/** A page of a ticket list: its filter, and where the page is. */
export interface TicketListQuery extends TicketListFilter {
  limit: number;
  offset: number;
  /** `_cursor`: the page after the one that answered it as `next` (then `offset` is 0). */
  cursor?: string;
  /** Newest (highest id) first: the lists across events. Only for combinations with exact counts (the events alone or all, with the state exclusion). */
  newestFirst?: boolean;
}

/**
 * The all-events list's positions and counts are kept under event 0 (ids start at 1, so no
 * event has it): list `all` by id block, list `count` by shard (shared/lists/list-positions.ts).
 */
export const ALL_EVENTS = 0;

/** The key that serves the page. `event` and `type` list the ticket items; `team`, `state` and `all` list entries. */
export type Dimension = 'event' | 'team' | 'type' | 'state' | 'all';

export interface ListSource<P = unknown> {
  /** Where it is read (shared/data/keys.ts spells it; the plan only passes it on). */
  partition: P;
  /** Granted-event entries list tickets of any event; the others must be of a requested event. */
  anyEvent: boolean;
}

/** The key spellings the plan needs (from shared/data/keys.ts, which domain/ does not import). */
export interface ListKeys<P> {
  eventTickets(eventId: number): P;
  teamTickets(eventId: number, teamKey: number): P;
  typeTickets(typeId: number): P;
  stateTickets(eventId: number, state: number): P;
  accessTickets(eventId: number): P;
  allTickets: P;
}

/** The events whose own tickets are listed: `event`, `events` and `accessEvents`. */
export const ownEvents = (filter: TicketListFilter): number[] => [
  ...new Set([...filter.events, ...filter.accessEvents]),
];

export const includedStates = (filter: TicketListFilter): number[] =>
  PROCESS_STATES.filter((state) => !filter.excludeProcessStates?.includes(state));

/** The dimensions that can serve this filter (the event's own list always can). */
export function candidates(filter: TicketListFilter): Dimension[] {
  if (filter.allEvents) return ['all'];
  const own = ownEvents(filter).length;
  const dims: Dimension[] = ['event'];
  if (filter.teams?.length && own * filter.teams.length <= MAX_LIST_SOURCES) dims.push('team');
  if (filter.ticketTypes?.length) dims.push('type');
  if (filter.excludeProcessStates?.length && own * includedStates(filter).length <= MAX_LIST_SOURCES)
    dims.push('state');
  return dims;
}

/** The partitions a dimension reads: its own-event ones, plus each requested access event's granted entries. */
export function sourcesOf<P>(filter: TicketListFilter, dimension: Dimension, k: ListKeys<P>): ListSource<P>[] {
  const own = ownEvents(filter);
  const sources: ListSource<P>[] = [];
  const add = (partition: P) => sources.push({ partition, anyEvent: false });
  if (dimension === 'all') return [{ partition: k.allTickets, anyEvent: true }];
  if (dimension === 'event') for (const eventId of own) add(k.eventTickets(eventId));
  if (dimension === 'team')
    for (const eventId of own) for (const team of new Set(filter.teams)) add(k.teamTickets(eventId, team));
  if (dimension === 'type') for (const typeId of new Set(filter.ticketTypes)) add(k.typeTickets(typeId));
  if (dimension === 'state')
    for (const eventId of own) for (const state of includedStates(filter)) add(k.stateTickets(eventId, state));
  for (const eventId of new Set(filter.accessEvents))
    sources.push({ partition: k.accessTickets(eventId), anyEvent: true });
  return sources;
}

/** The filter tuple every listed item (ticket or entry) carries. */
export interface ListTuple {
  eventId: number;
  typeId: number;
  teamKey: number;
  processState: number;
}

/** Every filter, whichever key served the read. */
export function matchesList(
  item: ListTuple,
  filter: TicketListFilter,
  source: ListSource,
  own: ReadonlySet<number>,
): boolean {
  return (
    (source.anyEvent || own.has(item.eventId)) &&
    (!filter.teams?.length || filter.teams.includes(item.teamKey)) &&
    (!filter.ticketTypes?.length || filter.ticketTypes.includes(item.typeId)) &&
    !filter.excludeProcessStates?.includes(item.processState)
  );
}

/**
 * Team × type pairs a list may name at most: each pair's 4 state counters are read per page
 * (in one projection of their own, within DynamoDB's 4 KB expression limit), so the total is
 * exact; more is a 400 naming the cap (split the query).
 */
export const MAX_COUNTED_PAIRS = 100;

/** Whether the filter names few enough team × type pairs for their counters to be read (MAX_COUNTED_PAIRS). */
export const pairsCounted = (filter: TicketListFilter): boolean =>
  !filter.teams?.length ||
  !filter.ticketTypes?.length ||
  new Set(filter.teams).size * new Set(filter.ticketTypes).size <= MAX_COUNTED_PAIRS;

/**
 * Access events beside other listed events (own or granted): a ticket can then be both an
 * own one and a granted one, or granted into two of them, so the access events' granted
 * counts and blocks would count it twice.
 */
export const besideOthers = (filter: TicketListFilter): boolean =>
  filter.accessEvents.length > 0 && ownEvents(filter).length + new Set(filter.accessEvents).size > 2;

/**
 * The granting types whose tickets the filter lists besides the own events' (a ticket is
 * granted entry exactly when its type's access package names the event; grants never
 * change): of events not listed as own, of the filter's types, each type once, with the
 * first access event it grants entry to (whose counters then count it).
 */
export function grantingTypes(filter: TicketListFilter, grants: readonly AccessGrant[]): AccessGrant[] {
  const own = new Set(ownEvents(filter));
  const types = filter.ticketTypes?.length ? new Set(filter.ticketTypes) : undefined;
  const seen = new Set<number>();
  return grants.filter((grant) => {
    if (own.has(grant.eventId) || (types && !types.has(grant.typeId)) || seen.has(grant.typeId)) return false;
    seen.add(grant.typeId);
    return true;
  });
}

/**
 * Whether the kept counts give the exact `totalCount`: each of team, type (with or without
 * the state exclusion) and the events' own lists has counts, and so has each team × type
 * pair (up to MAX_COUNTED_PAIRS of them); granted tickets are counted per access event, by
 * team, type and pair too, so one access event alone is exact with any filter. Beside other
 * events (`besideOthers`) the granted ones are counted per granting type instead (from the
 * access events' `grants`, each type once, by team when the filter names teams): exact when
 * the grants are known and those counters are at most MAX_COUNTED_PAIRS.
 */
export function countIsExact(filter: TicketListFilter, grants?: readonly AccessGrant[]): boolean {
  if (!pairsCounted(filter)) return false;
  if (!besideOthers(filter)) return true;
  const teams = Math.max(1, new Set(filter.teams).size);
  return !!grants && grantingTypes(filter, grants).length * teams <= MAX_COUNTED_PAIRS;
}

/**
 * The kept lists whose union (they are disjoint) is exactly what the filter lists, so an
 * offset is found from their block counts: the own events' lists (or their teams'), whole
 * or only the types' parts, and the granted tickets: one access event's granted blocks, or
 * else (with teams, or beside other events) the granting types' parts of their own events'
 * blocks, which `grants` (the access events' `GRANT#` items) name. Undefined for the
 * combinations `countIsExact` refuses, when the grants are not known (too many), or for
 * more than MAX_LIST_SOURCES lists: a page past the read budget then answers 400
 * (`pastReadBound`). A type's part is in its own event's blocks only: under another
 * requested event it is empty, as the filter.
 *
 * Granted tickets have no team parts or blocks by team: a block per access event and team
 * would move 20 more items per change of the widest package, past DynamoDB's 100 actions
 * for a transfer, where the granting types' parts of the team blocks already hold them.
 */
export function positionLists(
  filter: TicketListFilter,
  grants?: readonly AccessGrant[],
): EventPositionList[] | undefined {
  if (filter.allEvents) return [{ eventId: ALL_EVENTS, list: 'all' }];
  if (!countIsExact(filter, grants)) return undefined;
  const teams = filter.teams?.length ? [...new Set(filter.teams)].map(teamList) : undefined;
  const listsOf = (eventId: number, parts: string[] | undefined): EventPositionList[] =>
    (teams ?? ['event']).map((list) => ({ eventId, list, ...(parts ? { parts } : {}) }));
  const parts = filter.ticketTypes?.length ? [...new Set(filter.ticketTypes)].map(typePart) : undefined;
  const lists = ownEvents(filter).flatMap((eventId) => listsOf(eventId, parts));
  if (!filter.accessEvents.length) return lists;
  if (!teams && !besideOthers(filter)) {
    const access = [...new Set(filter.accessEvents)].map((eventId) => ({
      eventId,
      list: 'access',
      ...(parts ? { parts } : {}),
    }));
    return [...lists, ...access];
  }
  if (!grants) return undefined;
  const granting = new Map<number, string[]>();
  for (const { eventId, typeId } of grantingTypes(filter, grants))
    granting.set(eventId, [...(granting.get(eventId) ?? []), typePart(typeId)]);
  for (const [eventId, typeParts] of granting) lists.push(...listsOf(eventId, typeParts));
  return lists.length <= MAX_LIST_SOURCES ? lists : undefined;
}

// ---- Cursor --------------------------------------------------------------------------

/**
 * `_cursor`: opaque to clients; the id after which the next page starts (an event's list is
 * in id order), or before which it starts (`newestFirst`: the lists across events).
 */
export const encodeCursor = (id: number, newestFirst = false): string =>
  Buffer.from(`${newestFirst ? 'b' : 't'}:${id}`).toString('base64url');

export function decodeCursor(cursor: string, newestFirst = false): number {
  const match = (newestFirst ? /^b:(\d{1,15})$/ : /^t:(\d{1,15})$/).exec(
    Buffer.from(cursor, 'base64url').toString('utf8'),
  );
  if (!match)
    throw new ValidationError(
      '_cursor is not a cursor this list answered: pass `next` from a previous page unchanged.',
      [{ path: 'query._cursor', message: 'unknown cursor' }],
    );
  return Number(match[1]);
}

/** 400 for an offset combined with a cursor. */
export function checkPaging({ offset, cursor }: { offset: number; cursor?: string }): void {
  if (cursor !== undefined && offset > 0) {
    throw new ValidationError('_cursor continues where the previous page ended: send it without _offset.', [
      { path: 'query._offset', message: 'must be 0 with _cursor' },
    ]);
  }
}

/**
 * 400: filling the page would read more than LIST_READ_BUDGET tickets: a deep `_offset`
 * for a filter combination whose positions are not kept (access events granted into by
 * too many types to count or position, see `positionLists`), or matches too sparse in the
 * list that serves the page where no kept positions say which blocks hold them (or those
 * blocks hold more than a sparse page may read). Never a short page. Names the narrower
 * ways that page at any depth.
 */
export function pastReadBound(): ValidationError {
  const message =
    `Filling this page would read more than ${LIST_READ_BUDGET} tickets (positions are kept per events, teams and ticket_types, and for accessEvents unless granted into by too many ticket types). ` +
    'Filter by events, teams and ticket_types (with exclude_process_states), which page at any depth, or walk with `next` as _cursor from the first page.';
  return new ValidationError(message, [
    { path: 'query', message: `this filter combination cannot fill the page within ${LIST_READ_BUDGET} tickets read` },
  ]);
}
