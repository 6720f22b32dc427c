import type { Event } from '../domain/event.ts';
import { entryHolds, type EventSearchKey } from '../domain/portal-lists.ts';
import { batchGet } from '../data/client.ts';
import { asEvent } from '../data/customer-events.ts';
import { keys } from '../data/keys.ts';
import { walkMerged } from './merged-walk.ts';

/**
 * The door to the administrators' event list (`GET /events`), by start (`<startsAt ISO>#<id:10>`):
 * the list the filters name (keys.ts `allEvents`, `draftEvents`, the portal's `publishedEvents`, or
 * a published title's search entries), from after a cursor, within a budget of index items. Its
 * totals are the kept counts (shared/data/event-counts.ts), read by the use case.
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
  const word = walk.key?.word;
  const read = await walkMerged(
    [
      {
        partition,
        low: walk.from === undefined ? undefined : keys.timeSortBound(walk.from, 'first'),
        high: walk.to === undefined ? undefined : keys.timeSortBound(walk.to, 'last'),
      },
    ],
    {
      need: walk.need,
      budget: walk.budget,
      after: walk.after,
      keep: word === undefined ? undefined : (item) => Array.isArray(item.tokens) && entryHolds(item.tokens, word),
      confirm: walk.matches ? confirmWith(walk.matches) : undefined,
    },
  );
  return {
    events: read.items.map(({ sort, item }) => ({ sort, event: asEvent(item) })),
    complete: read.complete,
  };
}

/** Search entries are read for their event, which is batch-read and filtered; index items of events hold them whole. */
function confirmWith(matches: (event: Event) => boolean) {
  return async (batch: { sort: string; item: Record<string, unknown> }[]) => {
    const entries = batch.filter(({ item }) => item.entity === 'EventSearchEntry');
    const read = new Map(
      (await batchGet(entries.map(({ item }) => keys.event(Number(item.eventId))))).flatMap((item) =>
        item ? [[Number(item.id), item] as const] : [],
      ),
    );
    return batch.flatMap(({ sort, item }) => {
      const whole = item.entity === 'EventSearchEntry' ? read.get(Number(item.eventId)) : item;
      return whole && !whole.deleted && matches(asEvent(whole)) ? [{ sort, item: whole }] : [];
    });
  };
}
