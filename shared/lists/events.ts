import type { Event } from '../events/domain/event.ts';
import type { EventSearchKey } from '../portal/domain/portal-lists.ts';
import { keys } from '../data/keys.ts';
import { walkEventIndex } from './event-index-walk.ts';

/**
 * The door to the administrators' event list (`GET /events`), by start (`<startsAt ISO>#<id:10>`):
 * the list the filters name (keys.ts `allEvents`, `draftEvents`, the portal's `publishedEvents`, or
 * a published title's search entries), from after a cursor, within a budget of index items
 * (event-index-walk.ts). Its totals are the kept counts (shared/events/data/event-counts.ts), read by the
 * use case.
 */

export interface AdminEventWalk {
  published?: boolean;
  from?: string;
  to?: string;
  /** The title filter's index word (published events only: their search entries hold it). */
  key?: EventSearchKey;
  matches?: (event: Event) => boolean;
  after?: string;
  need: number;
  budget: number;
}

/** Events by start from after a cursor, read from the list the filters name, within `budget` index items. */
export async function walkAdminEvents(walk: AdminEventWalk) {
  const partition =
    walk.key && walk.published
      ? keys.eventSearch(walk.key.bucket)
      : walk.published === undefined
        ? keys.allEvents
        : walk.published
          ? keys.publishedEvents
          : keys.draftEvents;
  // Every item of these lists is a whole event, or a search entry the title filter's confirm reads it for (whole).
  const { from, to, matches, after, need, budget } = walk;
  const read = await walkEventIndex({
    sources: [{ partition }],
    word: walk.key?.word,
    from,
    to,
    matches,
    after,
    need,
    budget,
  });
  return {
    events: read.events.flatMap(({ sort, event }) => (event ? [{ sort, event }] : [])),
    complete: read.complete,
  };
}
