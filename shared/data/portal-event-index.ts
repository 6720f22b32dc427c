import type { Event } from '../domain/event.ts';
import { eventSearchBuckets, MAX_EVENT_SEARCH_ENTRIES } from '../domain/portal-lists.ts';
import { ValidationError } from '../errors.ts';
import { tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * What the portal's event list keeps beside the events (keys.ts `eventSearchEntry`,
 * `publishedEventCount`, `customerEventIndexes`): a published event's search entries and the
 * published events' count, both written in the transaction of the event's creation and of
 * each edit of its texts, start or publication (event-admin-writes.ts).
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
