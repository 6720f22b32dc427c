import * as z from '#shared/schema';
import { EventHistoryResource } from '#shared/events/contract/event-parts';
import { PathId } from '#shared/http/path-params';
import { pagingQuery, wholeNumber } from '#shared/request-fields';
import { route } from '#shared/http/route';
import { eventHistoryFor } from '#shared/events/use-cases/event-list';

/** Newest first; `next` is the `before` of the following page (null on the last). */
export const handler = route(
  'GET /events/{id}/history',
  {
    path: PathId,
    query: z.strictObject({
      _limit: pagingQuery._limit,
      before: z.optional(wholeNumber('before', { positive: true })),
    }),
  },
  async ({ path, query, caller }) => {
    const page = await eventHistoryFor(caller, path.id, { limit: query._limit, before: query.before });
    return { body: { count: page.data.length, limit: query._limit, next: page.next, data: page.data } };
  },
);

export const answer = () =>
  z.strictObject({ count: z.int(), limit: z.int(), next: z.nullable(z.int()), data: z.array(EventHistoryResource) });
