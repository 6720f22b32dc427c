import { tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

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

/** The action counting a new event (createEvent): one more, and one more draft unless it is published. */
export const countNewEvent = (event: { published: boolean }) =>
  moveEventCounts({ n: 1, drafts: event.published ? 0 : 1 });
