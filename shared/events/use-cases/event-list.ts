import { getEvent } from '../data/events.ts';
import { eventCounts, readEventHistory } from '../data/event-admin-reads.ts';
import { batchGet } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { asEvent } from '../../portal/data/customer-events.ts';
import type { Event } from '../domain/event.ts';
import { toEventSummary, type EventHistoryEntry, type EventSummary } from '../domain/event-resource.ts';
import { walkAdminEvents } from '../../lists/events.ts';
import { decodeSortCursor, encodeSortCursor } from '../../lists/portal.ts';
import { byStart, eventMatcher } from '../../portal/domain/portal-event.ts';
import { eventSearchKey, PORTAL_READ_BUDGET, tooSparse } from '../../portal/domain/portal-lists.ts';
import { NotFound } from '../../errors.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import type { Caller } from './event-reads.ts';

/** The events routes' lists: every event by start (`GET /events`) and one event's history. Outside the caller's events: 404. */

export interface EventListQuery {
  published?: boolean;
  fromStart?: string;
  toStart?: string;
  title?: string;
  limit: number;
  offset: number;
  cursor?: string;
}

export interface EventPage {
  totalCount: number;
  totalCountIsEstimate: boolean;
  limit: number;
  offset: number;
  items: EventSummary[];
  next: string | null;
}

const sortOf = (event: Event) => keys.publishedEventSort(event.startsAt, event.id);

/**
 * `GET /events` in start order, walked by `next`: the list the filters name (every event,
 * the published or the unpublished ones; for a published title, its search entries), read
 * from the start or after `_cursor` within PORTAL_READ_BUDGET index items, as the portal's
 * list is (a title that matches too sparsely is a 400 naming a narrower query). Unfiltered,
 * the total comes from the kept counts; otherwise it is exact when the read reached the end.
 * A caller limited to some events reads those (a batch read of their scope).
 */
export async function listEventsFor(caller: Caller, query: EventListQuery): Promise<EventPage> {
  const after = query.cursor === undefined ? undefined : decodeSortCursor(query.cursor);
  const need = query.offset + query.limit + 1;
  const matches = query.title === undefined ? undefined : eventMatcher({ title: query.title });
  let found: { sort: string; event: Event }[];
  let complete: boolean;
  if (caller.eventScope) {
    const items = await batchGet(caller.eventScope.map((id) => keys.event(id)));
    found = items
      .flatMap((item) => (item ? [asEvent(item)] : []))
      .filter(
        (event) =>
          (query.published === undefined || event.published === query.published) &&
          (query.fromStart === undefined || event.startsAt >= query.fromStart) &&
          (query.toStart === undefined || event.startsAt <= query.toStart) &&
          (!matches || matches(event)),
      )
      .sort(byStart)
      .map((event) => ({ sort: sortOf(event), event }))
      .filter(({ sort }) => after === undefined || sort > after);
    complete = true;
  } else {
    const read = await walkAdminEvents({
      published: query.published,
      from: query.fromStart,
      to: query.toStart,
      key: query.title === undefined || !query.published ? undefined : eventSearchKey({ title: query.title }),
      matches,
      after,
      need,
      budget: PORTAL_READ_BUDGET,
    });
    if (!read.complete && read.events.length < need)
      throw tooSparse('title', 'narrow it with published=true, or a start window with fromStart and toStart');
    found = read.events;
    complete = read.complete;
  }
  const shown = found.slice(query.offset, query.offset + query.limit);
  const filtered = query.title !== undefined || query.fromStart !== undefined || query.toStart !== undefined;
  const counted = caller.eventScope || filtered ? undefined : await countFor(query.published);
  const readAll = complete && after === undefined;
  return {
    totalCount: counted ?? (readAll ? found.length : query.offset + found.length),
    totalCountIsEstimate: counted === undefined && !readAll,
    limit: query.limit,
    offset: query.offset,
    items: shown.map(({ event }) => toEventSummary(event)),
    next: found.length > query.offset + query.limit ? encodeSortCursor(shown.at(-1)!.sort) : null,
  };
}

async function countFor(published: boolean | undefined): Promise<number> {
  const { n, drafts } = await eventCounts();
  return published === undefined ? n : published ? n - drafts : drafts;
}

/** `GET /events/{id}/history`: newest first, `before` a version to read on from. */
export async function eventHistoryFor(
  caller: Caller,
  id: number,
  page: { limit: number; before?: number },
): Promise<{ data: EventHistoryEntry[]; next: number | null }> {
  if (!inScope(caller.eventScope, id)) throw new NotFound('Event', id);
  const { entries, more } = await readEventHistory(id, page);
  if (!entries.length && page.before === undefined) await getEvent(id);
  return { data: entries, next: more ? entries.at(-1)!.version : null };
}
