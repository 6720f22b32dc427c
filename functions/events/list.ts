import { CursorPageAnswer } from '#shared/http/answers';
import { EventListQuery, EventSummaryResource } from '#shared/events/contract/event';
import { cursorPaged } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { listEventsFor } from '#shared/events/use-cases/event-list';

export const handler = route('GET /events', { query: EventListQuery }, async ({ query, caller }) =>
  cursorPaged(
    await listEventsFor(caller, {
      published: query.published,
      fromStart: query.fromStart,
      toStart: query.toStart,
      title: query.title,
      limit: query._limit,
      offset: query._offset,
      cursor: query._cursor,
    }),
  ),
);

export const answer = () => CursorPageAnswer(EventSummaryResource);
