import type { CreatedEvent, Event } from '../events/domain/event.ts';
import { eventSearchBuckets, MAX_EVENT_SEARCH_ENTRIES } from '../portal/domain/portal-lists.ts';
import { ValidationError } from '../errors.ts';
import { tableName } from '../data/client.ts';
import type { ListingAction, EventListing } from '../events/data/event-admin-writes.ts';
import { keys } from '../data/keys.ts';

/**
 * What the portal's event list keeps beside the events (keys.ts `eventSearchEntry`,
 * `publishedEventCount`): a published event's search entries and the published events' count.
 * The event writes (shared/events/data/event-creation.ts, event-admin-writes.ts) add these actions to
 * their transaction as the use case hands them over: `eventListing` to a creation,
 * `eventListingMoves` to each edit of the event's texts, start or publication and to its deletion.
 */

type Texts = Pick<Event, 'id' | 'startsAt' | 'title' | 'description' | 'venue' | 'venueAddress'>;

/** A published event's search entries: one per distinct 3-character start of its words, with its tokens of that start. */
export function eventSearchItems(event: Texts): Record<string, unknown>[] {
  const buckets = eventSearchBuckets(event);
  if (buckets.size > MAX_EVENT_SEARCH_ENTRIES)
    throw new ValidationError(
      `An event's title, description, venue and address may start words with at most ${MAX_EVENT_SEARCH_ENTRIES} different 3-letter beginnings (the search index items written with it); this one has ${buckets.size}.`,
      [{ path: 'description', message: `more than ${MAX_EVENT_SEARCH_ENTRIES} search index entries` }],
    );
  return [...buckets].map(([bucket, tokens]) => ({
    ...keys.eventSearchEntry(event.id, bucket),
    ...keys.eventSearchIndexes(bucket, event.startsAt, event.id),
    entity: 'EventSearchEntry',
    eventId: event.id,
    tokens,
  }));
}

/** The transaction action counting `count` more published events (one, in an event's creation). */
export const countPublishedEvent = (count = 1) => ({
  Update: {
    TableName: tableName(),
    Key: keys.publishedEventCount(),
    UpdateExpression: 'SET entity = :entity ADD n :count',
    ExpressionAttributeValues: { ':entity': 'PublishedEventCount', ':count': count },
  },
});

/**
 * A new event's part: a published one's search entries (conditional Puts: new items) and the count
 * of one more published event; a draft's nothing. Building the entries refuses an event with too
 * much text to index (400), before its transaction is sent.
 */
export const eventListing: EventListing = {
  created: (event: CreatedEvent) =>
    event.published
      ? [
          ...eventSearchItems(event).map((Item) => ({
            Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
          })),
          countPublishedEvent(),
        ]
      : [],
};

/** The moves between two states of an event (`after` undefined: its deletion): the search entries that changed and the published count. */
export function eventListingMoves(before: Event, after: Event | undefined): ListingAction[] {
  const was = before.published ? eventSearchItems(before) : [];
  const now = after?.published ? eventSearchItems(after) : [];
  const kept = new Set(now.map((item) => String(item.SK)));
  const same = (a: Record<string, unknown>) =>
    after !== undefined &&
    after.startsAt === before.startsAt &&
    was.some((b) => b.SK === a.SK && JSON.stringify(b.tokens) === JSON.stringify(a.tokens));
  const actions: ListingAction[] = [
    ...now.filter((item) => !same(item)).map((Item) => ({ Put: { TableName: tableName(), Item } })),
    ...was
      .filter((item) => !kept.has(String(item.SK)))
      .map((item) => ({ Delete: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK } } })),
  ];
  const published = (event: Event | undefined) => (event?.published ? 1 : 0);
  const delta = published(after) - published(before);
  if (delta) actions.push(countPublishedEvent(delta));
  return actions;
}
