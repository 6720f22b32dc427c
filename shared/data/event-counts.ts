import { tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * The administrators' event counts (keys.ts `eventCount`): `n` every event, `drafts` the
 * unpublished ones, moved in the transaction of each creation, publication and deletion, so
 * `GET /events`'s default and `published` totals are exact from one GetItem.
 */
export interface EventCountMove {
  n: number;
  drafts: number;
}

/** The transaction action moving the counts by `move`. */
export const moveEventCounts = (move: EventCountMove) => ({
  Update: {
    TableName: tableName(),
    Key: keys.eventCount(),
    UpdateExpression: 'SET entity = :entity ADD n :n, drafts :drafts',
    ExpressionAttributeValues: { ':entity': 'EventCount', ':n': move.n, ':drafts': move.drafts },
  },
});

/** The action counting new events (createEvent, createEventsInBulk). */
export const countEvents = (events: readonly { published: boolean }[]) =>
  moveEventCounts({ n: events.length, drafts: events.filter((event) => !event.published).length });
