import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Event } from '../domain/event.ts';
import { batchGet, db, queryPages, tableName, storedAs } from './client.ts';
import { keys } from './keys.ts';
import { keyCondition } from './key-conditions.ts';
import { STATS_SHARDS } from './ticket-stats.ts';

/**
 * The events a customer can access: published ones (the sparse GSI1 `PUBLISHED_EVENTS`,
 * sorted by start) and those they hold an order for (link items `CUSTOMER#<id>` /
 * `EVENT#<eventId:10>`, written in the order's creation transaction, with `orderCount`).
 * Each list is read up to PORTAL_EVENT_CAP items; `cut` says there were more (the use
 * case then answers a 400 naming a narrower window rather than a partial list).
 */
export const PORTAL_EVENT_CAP = 500;

/** What the portal reads of an event: everything but the attendee questions, which can be large. */
const LISTING_FIELDS = [
  'id',
  'title',
  'timezone',
  'startsAt',
  'capacity',
  'created',
  'venue',
  'venueAddress',
  'description',
  'shortDescription',
  'category',
  'ordering',
  'location',
  'sefUrl',
  'smallPic',
  'largePic',
  'cutOff',
  'onSaleDate',
  'publishedDate',
  'published',
  'hideDate',
  'hideTime',
] as const;
const projection = {
  expression: LISTING_FIELDS.map((_, i) => `#f${i}`).join(', '),
  names: Object.fromEntries(LISTING_FIELDS.map((field, i) => [`#f${i}`, field])),
};
/** Event records read with `projection` lack `questions`, which the portal never shows. */
// Events stored before questions existed have none.
const asEvent = (item: Record<string, unknown>): Event => {
  const event = storedAs<Event>(item);
  return { ...event, questions: event.questions ?? [] };
};

export interface CappedEvents {
  events: Event[];
  /** More than PORTAL_EVENT_CAP matched the key condition: the rest was not read. */
  cut: boolean;
}

/** Published events starting within [from, to] (ISO-8601 UTC, inclusive, either open), by start: at most PORTAL_EVENT_CAP. */
export async function listPublishedEvents(range: { from?: string; to?: string }): Promise<CappedEvents> {
  const { from, to } = range;
  const items = await queryPages(
    {
      TableName: tableName(),
      ...keyCondition(keys.publishedEvents, keys.timeRange({ from: from || undefined, to: to || undefined })),
      ProjectionExpression: projection.expression,
      ExpressionAttributeNames: projection.names,
    },
    PORTAL_EVENT_CAP + 1,
  );
  return { events: items.slice(0, PORTAL_EVENT_CAP).map(asEvent), cut: items.length > PORTAL_EVENT_CAP };
}

/** The events the customer holds an order for (published or not): one Query of their link items, one batch read of the events. */
export async function listCustomerEvents(customerId: number): Promise<CappedEvents> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.customerItems(customerId), { beginsWith: keys.customerEventPrefix }),
      ProjectionExpression: 'eventId',
      Limit: PORTAL_EVENT_CAP + 1,
    }),
  );
  const ids = Items.slice(0, PORTAL_EVENT_CAP).map((item) => Number(item.eventId));
  const events = await batchGet(
    ids.map((id) => keys.event(id)),
    { projection: projection.expression, names: projection.names },
  );
  return { events: events.flatMap((item) => (item ? [asEvent(item)] : [])), cut: Items.length > PORTAL_EVENT_CAP };
}

/** Whether the customer holds an order for the event (its link item): one GetItem. */
export async function holdsOrderFor(customerId: number, eventId: number): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.customerEvent(customerId, eventId),
      ProjectionExpression: 'PK',
    }),
  );
  return !!Item;
}

/** The transaction action that links a customer to an event (and counts their orders of it): part of the order's creation. */
export const customerEventLink = (customerId: number, eventId: number) => ({
  Update: {
    TableName: tableName(),
    Key: keys.customerEvent(customerId, eventId),
    UpdateExpression: 'SET entity = :entity, customerId = :customer, eventId = :event ADD orderCount :one',
    ExpressionAttributeValues: { ':entity': 'CustomerEvent', ':customer': customerId, ':event': eventId, ':one': 1 },
  },
});

/** Each event's sold tickets: the sum of its statistics shards' `sold`, all events in one batch read. */
export async function soldByEvent(eventIds: readonly number[]): Promise<Map<number, number>> {
  const unique = [...new Set(eventIds)];
  const shardKeys = unique.flatMap((eventId) =>
    Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
  );
  const sold = new Map(unique.map((id) => [id, 0]));
  const items = await batchGet(shardKeys, { projection: '#sold', names: { '#sold': 'sold' } });
  items.forEach((item, i) => {
    const eventId = unique[Math.floor(i / STATS_SHARDS)]!;
    sold.set(eventId, sold.get(eventId)! + Number(item?.sold ?? 0));
  });
  return sold;
}
