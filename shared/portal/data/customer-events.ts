import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Event } from '../../events/domain/event.ts';
import { db, tableName } from '../../data/client.ts';
import { eventFromItem } from '../../events/data/event-items.ts';
import { keys } from '../../data/keys.ts';

/**
 * The events a customer can access: published ones (the sparse GSI1 `PUBLISHED_EVENTS`,
 * sorted by start) and those they hold an order for (link items `CUSTOMER#<id>` /
 * `EVENT#<eventId:10>`, written in the order's creation transaction, with `orderCount`, on
 * the customer's start-ordered indexes: keys.ts `customerEventIndexes`). The portal's walk
 * of them is in shared/lists/portal-event-reads.ts.
 */

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
export const listingProjection = {
  expression: LISTING_FIELDS.map((_, i) => `#f${i}`).join(', '),
  names: Object.fromEntries(LISTING_FIELDS.map((field, i) => [`#f${i}`, field])),
};
/** An event record, whole or read with `listingProjection` (no `questions`, which the portal never shows: read as none). */
export const asEvent = (item: Record<string, unknown>): Event => eventFromItem(item);

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

/**
 * Whether the customer may see the event: a published one, or one they hold an order for (else it is the unknown
 * event's 404 to them). Only an unpublished event costs a read (the link's GetItem).
 */
export async function mayAccess(customerId: number, event: Pick<Event, 'id' | 'published'>): Promise<boolean> {
  return event.published || (await holdsOrderFor(customerId, event.id));
}

/** The transaction action that links a customer to an event (and counts their orders of it): part of the order's creation. */
export function customerEventLink(customerId: number, event: LinkedEvent) {
  const placed = keys.customerEventIndexes(customerId, event);
  const names = Object.keys(placed);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.customerEvent(customerId, event.id),
      UpdateExpression: `SET entity = :entity, customerId = :customer, eventId = :event, ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')} ADD orderCount :one`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#k${i}`, name])),
      ExpressionAttributeValues: {
        ':entity': 'CustomerEvent',
        ':customer': customerId,
        ':event': event.id,
        ':one': 1,
        ...Object.fromEntries(names.map((name, i) => [`:k${i}`, placed[name]])),
      },
    },
  };
}

/** What a link's index key needs of its event (its start stays once it has tickets: shared/events/domain/event-admin.ts). */
export type LinkedEvent = Pick<Event, 'id' | 'startsAt'>;
