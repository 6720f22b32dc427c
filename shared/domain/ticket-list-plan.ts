import { ValidationError } from '../errors.ts';
import { PROCESS_STATES } from './ticket.ts';

/**
 * `GET /tickets`, pure: which key serves the page (the most selective filter by its kept
 * count), which filters are applied to what that Query reads, the read bounds, the cursor
 * and when `totalCount` is exact. The reads are in shared/data/ticket-lists.ts; README
 * "Tickets" (Lists at scale) documents the same rules.
 */

/** `_offset` at most this: deeper pages continue with the `_cursor` every page answers as `next`. */
export const MAX_TICKET_OFFSET = 1000;
/** Index items one page reads at most (all sources together; at least `limit + 1` per source). */
export const LIST_READ_BUDGET = 2000;
/** Partitions one page may Query; a filter needing more is applied to a broader read instead. */
export const MAX_LIST_SOURCES = 60;

export interface TicketListFilter {
  events: number[];
  accessEvents: number[];
  teams?: number[];
  ticketTypes?: number[];
  excludeProcessStates?: number[];
}

/** The key that serves the page. `event` GSI1 and `type` GSI2 are the ticket items; `team` and `state` are list entries. */
export type Dimension = 'event' | 'team' | 'type' | 'state';

export interface ListSource {
  index: 'GSI1' | 'GSI2';
  partition: string;
  /** Small list entries (the page's tickets are then batch-read) rather than whole tickets. */
  entries: boolean;
  /** Granted-event entries list tickets of any event; the others must be of a requested event. */
  anyEvent: boolean;
}

/** The key spellings the plan needs (from shared/data/keys.ts, which domain/ does not import). */
export interface ListKeys {
  eventTickets(eventId: number): string;
  teamTickets(eventId: number, teamKey: number): string;
  typeTickets(typeId: number): string;
  stateTickets(eventId: number, state: number): string;
  accessTickets(eventId: number): string;
}

/** The events whose own tickets are listed: `event`, `events` and `accessEvents`. */
export const ownEvents = (filter: TicketListFilter): number[] => [...new Set([...filter.events, ...filter.accessEvents])];

export const includedStates = (filter: TicketListFilter): number[] => PROCESS_STATES.filter((state) => !filter.excludeProcessStates?.includes(state));

/** The dimensions that can serve this filter (the event's own list always can). */
export function candidates(filter: TicketListFilter): Dimension[] {
  const own = ownEvents(filter).length;
  const dims: Dimension[] = ['event'];
  if (filter.teams?.length && own * filter.teams.length <= MAX_LIST_SOURCES) dims.push('team');
  if (filter.ticketTypes?.length) dims.push('type');
  if (filter.excludeProcessStates?.length && own * includedStates(filter).length <= MAX_LIST_SOURCES) dims.push('state');
  return dims;
}

/** The partitions a dimension reads: its own-event ones, plus each requested access event's granted entries. */
export function sourcesOf(filter: TicketListFilter, dimension: Dimension, k: ListKeys): ListSource[] {
  const own = ownEvents(filter);
  const sources: ListSource[] = [];
  const add = (index: 'GSI1' | 'GSI2', partition: string, entries: boolean) => sources.push({ index, partition, entries, anyEvent: false });
  if (dimension === 'event') for (const eventId of own) add('GSI1', k.eventTickets(eventId), false);
  if (dimension === 'team') for (const eventId of own) for (const team of new Set(filter.teams)) add('GSI1', k.teamTickets(eventId, team), true);
  if (dimension === 'type') for (const typeId of new Set(filter.ticketTypes)) add('GSI2', k.typeTickets(typeId), false);
  if (dimension === 'state') for (const eventId of own) for (const state of includedStates(filter)) add('GSI2', k.stateTickets(eventId, state), true);
  for (const eventId of new Set(filter.accessEvents)) sources.push({ index: 'GSI1', partition: k.accessTickets(eventId), entries: true, anyEvent: true });
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
export function matchesList(item: ListTuple, filter: TicketListFilter, source: ListSource, own: ReadonlySet<number>): boolean {
  return (
    (source.anyEvent || own.has(item.eventId)) &&
    (!filter.teams?.length || filter.teams.includes(item.teamKey)) &&
    (!filter.ticketTypes?.length || filter.ticketTypes.includes(item.typeId)) &&
    !filter.excludeProcessStates?.includes(item.processState)
  );
}

/**
 * Whether the kept counts give the exact `totalCount`: each of team, type (with or without
 * the state exclusion) and the events' own lists has counts, their combinations do not;
 * granted tickets are counted per access event, so one listed event with `accessEvents`
 * is exact but several may count a ticket twice (it can be of one and granted another).
 */
export function countIsExact(filter: TicketListFilter): boolean {
  const teams = !!filter.teams?.length;
  const types = !!filter.ticketTypes?.length;
  if (teams && types) return false;
  if (filter.accessEvents.length && (teams || types || ownEvents(filter).length + filter.accessEvents.length > 2)) return false;
  return true;
}

// ---- Cursor --------------------------------------------------------------------------

/** `_cursor`: opaque to clients; the id after which the next page starts (every list is in id order). */
export const encodeCursor = (afterId: number): string => Buffer.from(`t:${afterId}`).toString('base64url');

export function decodeCursor(cursor: string): number {
  const match = /^t:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new ValidationError('_cursor is not a cursor this list answered: pass `next` from a previous page unchanged.', [{ path: 'query._cursor', message: 'unknown cursor' }]);
  return Number(match[1]);
}

/** 400 for an `_offset` past MAX_TICKET_OFFSET (naming the cursor), or an offset combined with a cursor. */
export function checkPaging({ offset, cursor }: { offset: number; cursor?: string }): void {
  if (cursor !== undefined && offset > 0) {
    throw new ValidationError('_cursor continues where the previous page ended: send it without _offset.', [{ path: 'query._offset', message: 'must be 0 with _cursor' }]);
  }
  if (offset > MAX_TICKET_OFFSET) {
    const message = `_offset must be at most ${MAX_TICKET_OFFSET}: for deeper pages pass the page's \`next\` as _cursor (each page answers it).`;
    throw new ValidationError(message, [{ path: 'query._offset', message: `must be at most ${MAX_TICKET_OFFSET}; continue with _cursor` }]);
  }
}
