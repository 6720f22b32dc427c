import type { Event } from '../events/domain/event.ts';
import { entryHolds } from '../portal/domain/portal-lists.ts';
import { batchGet } from '../data/client.ts';
import { asEvent } from '../portal/data/customer-events.ts';
import { keys } from '../data/keys.ts';
import type { Partition } from '../data/key-conditions.ts';
import { walkMerged, type Walked, type WalkSource } from './merged-walk.ts';

/**
 * The one walk of the event indexes by start (`<startsAt ISO>#<id:10>`), from after a cursor: the
 * administrators' list (events.ts) and the portal's (portal-event-reads.ts) name the partitions it
 * merges and what the text filters' confirm reads of an event. A search entry is kept when it holds
 * a token the word starts (an entry without tokens, a customer's link, is read on); with text
 * filters, the entries that hold no event (search entries, links, keys-only reads: no `title`) are
 * batch-read for their event, which must exist and match.
 */

export type Projection = NonNullable<WalkSource['projection']>;

export interface EventIndexWalk {
  /** The partitions merged, each with what is read of its items (undefined: all of it). */
  sources: readonly { partition: Partition; projection?: Projection }[];
  /** ISO-8601 UTC, inclusive. */
  from?: string;
  to?: string;
  /** The text filters' index word (portal-lists.ts `eventSearchKey`), when a search partition is walked. */
  word?: string;
  /** The text filters on the event itself (undefined: none). */
  matches?: (event: Event) => boolean;
  /** What the confirm's batch read of an entry's event reads (undefined: the whole event). */
  eventProjection?: Projection;
  /** One entry per sort key, the first source's on a tie (merged-walk.ts `distinct`). */
  distinct?: boolean;
  after?: string;
  need: number;
  budget: number;
}

export interface WalkedEvent {
  /** Its sort key: where a cursor after it resumes. */
  sort: string;
  eventId: number;
  /** Read with the page, or by the walk when a filter needed it. */
  event?: Event;
}

export interface EventWalkRead {
  events: WalkedEvent[];
  complete: boolean;
  itemsRead: number;
}

export async function walkEventIndex(walk: EventIndexWalk): Promise<EventWalkRead> {
  const low = walk.from === undefined ? undefined : keys.timeSortBound(walk.from, 'first');
  const high = walk.to === undefined ? undefined : keys.timeSortBound(walk.to, 'last');
  const { word, matches } = walk;
  const read = await walkMerged(
    walk.sources.map((source) => ({ ...source, low, high })),
    {
      need: walk.need,
      budget: walk.budget,
      after: walk.after,
      distinct: walk.distinct,
      keep: word === undefined ? undefined : (item) => !Array.isArray(item.tokens) || entryHolds(item.tokens, word),
      confirm: matches && confirmWith(matches, walk.eventProjection),
    },
  );
  return {
    events: read.items.map(({ sort, item }) => ({
      sort,
      eventId: Number(item.eventId ?? item.id),
      ...(item.title !== undefined ? { event: asEvent(item) } : {}),
    })),
    complete: read.complete,
    itemsRead: read.itemsRead,
  };
}

/** The walked entries whose events meet the text filters: the events not read with them are batch-read. */
function confirmWith(matches: (event: Event) => boolean, projection: Projection | undefined) {
  return async (batch: Walked[]): Promise<Walked[]> => {
    const missing = batch.filter(({ item }) => item.title === undefined);
    const read = await readEventsBy(
      missing.map(({ item }) => Number(item.eventId)),
      projection,
    );
    return batch.flatMap((walked) => {
      const event = walked.item.title === undefined ? read.get(Number(walked.item.eventId)) : asEvent(walked.item);
      return event && matches(event) ? [{ sort: walked.sort, item: { ...event, eventId: event.id } }] : [];
    });
  };
}

/** Events by id (`projection` of each; undefined: whole): one batch read. */
export async function readEventsBy(
  ids: readonly number[],
  projection: Projection | undefined,
): Promise<Map<number, Event>> {
  if (!ids.length) return new Map();
  const items = await batchGet(
    ids.map((id) => keys.event(id)),
    projection && { projection: projection.expression, names: projection.names },
  );
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), asEvent(item)] as const] : [])));
}
