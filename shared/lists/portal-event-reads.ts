import type { Event } from '../events/domain/event.ts';
import type { EventSearchKey } from '../portal/domain/portal-lists.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from '../data/client.ts';
import { listingProjection } from '../portal/data/customer-events.ts';
import { keys } from '../data/keys.ts';
import { type EventIndexWalk, type EventWalkRead, readEventsBy, walkEventIndex } from './event-index-walk.ts';

/**
 * The portal's event list read by start (`<startsAt ISO>#<id:10>`), from after a cursor:
 * the published events (or, for a text filter, the search entries of its word) merged with
 * the customer's linked events, one entry per sort key (`all`: a published event's link
 * shares its sort key and is dropped, an unpublished one's link is the only entry), or the
 * customer's linked events alone (`orders`): the partitions the one event-index walk merges
 * (event-index-walk.ts), each read in chunks with a Limit, the whole walk within `budget` index
 * items; events are batch-read (listing fields) only for the entries that need them.
 */

export type EventWalkScope = 'all' | 'orders';

export interface EventWalk {
  customerId: number;
  scope: EventWalkScope;
  /** ISO-8601 UTC, inclusive. */
  from?: string;
  to?: string;
  /** The text filters' index word, when one serves them (portal-lists.ts `eventSearchKey`). */
  key?: EventSearchKey;
  /** The text filters on the event itself (undefined: none). */
  matches?: (event: Event) => boolean;
  after?: string;
  need: number;
  budget: number;
}

const keysOnly = { expression: '#id, eventId, tokens', names: { '#id': 'id' } };

export async function walkPortalEvents(walk: EventWalk): Promise<EventWalkRead> {
  const sources: EventIndexWalk['sources'] =
    walk.scope === 'orders'
      ? [{ partition: keys.customerEventsByStart(walk.customerId), projection: keysOnly }]
      : [
          walk.key
            ? { partition: keys.eventSearch(walk.key.bucket), projection: keysOnly }
            : { partition: keys.publishedEvents, projection: listingProjection },
          // Listed second: on a shared sort key the published (or search) entry is the one judged.
          { partition: keys.customerEventsByStart(walk.customerId), projection: { expression: 'eventId', names: {} } },
        ];
  const { from, to, matches, after, need, budget } = walk;
  // The events not read with their entries are read with the listing fields.
  return walkEventIndex({
    sources,
    word: walk.key?.word,
    eventProjection: listingProjection,
    distinct: walk.scope === 'all',
    from,
    to,
    matches,
    after,
    need,
    budget,
  });
}

/** Events by id (listing fields): one batch read. */
export const readEvents = (ids: readonly number[]): Promise<Map<number, Event>> => readEventsBy(ids, listingProjection);

/** The published events' count (none before the first is published); one GetItem. */
export async function publishedEventCount(): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.publishedEventCount() }));
  return Number(Item?.n ?? 0);
}

/** A customer's unpublished linked events are counted when they hold orders for at most this many events (one BatchGetItem): more leaves the total an estimate. */
export const MAX_COUNTED_LINKED_EVENTS = 100;

/**
 * How many of the customer's linked events (`linked`: the ids of their order counts' `event#<id>`,
 * written with each link) are unpublished now, when at most MAX_COUNTED_LINKED_EVENTS: one
 * BatchGetItem of their `published`. Publication changes without touching the links (a counter
 * per customer would be one write per buyer of the event), so it is read where it is kept.
 */
export async function privateEventCount(linked: readonly number[]): Promise<number | undefined> {
  if (linked.length > MAX_COUNTED_LINKED_EVENTS) return undefined;
  if (!linked.length) return 0;
  const items = await batchGet(
    linked.map((id) => keys.event(id)),
    { projection: '#published', names: { '#published': 'published' } },
  );
  return items.filter((item) => item && item.published !== true).length;
}
