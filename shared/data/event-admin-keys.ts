import { customerKeys } from './customer-keys.ts';
import { placedIn } from './key-conditions.ts';
import { on, sortableId, table, type Key } from './key-parts.ts';

/**
 * The administrators' declarations for events (`GET /events`, an event's history and counts), part of `keys`
 * (keys.ts) and held to the same rule: no key template or index name anywhere else.
 */
export const eventAdminKeys = {
  /**
   * The administrators' event lists (shared/lists/events.ts), on the event item by
   * `<startsAt>#<id:10>`: GSI2 `ALL_EVENTS` every event, GSI3 `DRAFT_EVENTS` the unpublished
   * ones (sparse); the published ones are GSI1 `PUBLISHED_EVENTS` (`publishedEventIndexes`).
   */
  allEvents: on('GSI2', 'ALL_EVENTS'),
  draftEvents: on('GSI3', 'DRAFT_EVENTS'),
  adminEventIndexes: (startsAt: string, id: number, published: boolean) =>
    published
      ? placedIn([eventAdminKeys.allEvents, customerKeys.publishedEventSort(startsAt, id)])
      : placedIn(
          [eventAdminKeys.allEvents, customerKeys.publishedEventSort(startsAt, id)],
          [eventAdminKeys.draftEvents, customerKeys.publishedEventSort(startsAt, id)],
        ),
  /** One change of an event (its version), in a partition of its own so it outlives the event: newest first by key. */
  eventHistory: (eventId: number, version: number): Key => ({
    PK: `EVENT_HISTORY#${eventId}`,
    SK: `VERSION#${sortableId(version)}`,
  }),
  eventHistoryOf: (eventId: number) => table(`EVENT_HISTORY#${eventId}`),
  eventHistoryPrefix: 'VERSION#',
  /** Every event (`n`) and the unpublished ones (`drafts`): the administrators' list totals, moved with each event. */
  eventCount: (): Key => ({ PK: 'COUNT#EVENTS', SK: 'COUNT' }),
};
