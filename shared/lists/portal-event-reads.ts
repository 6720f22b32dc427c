import type { Event } from '../domain/event.ts';
import { entryHolds, type EventSearchKey } from '../domain/portal-lists.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from '../data/client.ts';
import { asEvent, listingProjection } from '../data/customer-events.ts';
import { keys } from '../data/keys.ts';
import { walkMerged, type Walked, type WalkSource } from './merged-walk.ts';

/**
 * The portal's event list read by start (`<startsAt ISO>#<id:10>`), from after a cursor:
 * the published events (or, for a text filter, the search entries of its word) merged with
 * the customer's linked events, one entry per sort key (`all`: a published event's link
 * shares its sort key and is dropped, an unpublished one's link is the only entry), or the
 * customer's linked events alone (`orders`). Every partition is read in chunks with a Limit, the whole walk within
 * `budget` index items; events are batch-read only for the entries that need them.
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

const keysOnly = { expression: '#id, eventId, tokens', names: { '#id': 'id' } };

export async function walkPortalEvents(walk: EventWalk): Promise<EventWalkRead> {
  const bounds = {
    low: walk.from === undefined ? undefined : keys.timeSortBound(walk.from, 'first'),
    high: walk.to === undefined ? undefined : keys.timeSortBound(walk.to, 'last'),
  };
  const sources: WalkSource[] = [];
  if (walk.scope === 'orders') {
    sources.push({ partition: keys.customerEventsByStart(walk.customerId), ...bounds, projection: keysOnly });
  } else {
    sources.push(
      walk.key
        ? { partition: keys.eventSearch(walk.key.bucket), ...bounds, projection: keysOnly }
        : { partition: keys.publishedEvents, ...bounds, projection: listingProjection },
      // Listed second: on a shared sort key the published (or search) entry is the one judged.
      {
        partition: keys.customerEventsByStart(walk.customerId),
        ...bounds,
        projection: { expression: 'eventId', names: {} },
      },
    );
  }
  const word = walk.key?.word;
  const read = await walkMerged(sources, {
    need: walk.need,
    budget: walk.budget,
    after: walk.after,
    distinct: walk.scope === 'all',
    // A search entry is a candidate when it holds a token the word starts (a linked event has none: read on).
    keep: word === undefined ? undefined : (item) => !Array.isArray(item.tokens) || entryHolds(item.tokens, word),
    confirm: walk.matches ? confirmWith(walk.matches) : undefined,
  });
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
function confirmWith(matches: (event: Event) => boolean) {
  return async (batch: Walked[]): Promise<Walked[]> => {
    const missing = batch.filter(({ item }) => item.title === undefined);
    const read = await readEvents(missing.map(({ item }) => Number(item.eventId)));
    return batch.flatMap((walked) => {
      const event = walked.item.title === undefined ? read.get(Number(walked.item.eventId)) : asEvent(walked.item);
      return event && matches(event) ? [{ sort: walked.sort, item: { ...event, eventId: event.id } }] : [];
    });
  };
}

/** Events by id (listing fields): one batch read. */
export async function readEvents(ids: readonly number[]): Promise<Map<number, Event>> {
  if (!ids.length) return new Map();
  const items = await batchGet(
    ids.map((id) => keys.event(id)),
    { projection: listingProjection.expression, names: listingProjection.names },
  );
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), asEvent(item)] as const] : [])));
}

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
