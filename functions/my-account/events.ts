import { CursorPageAnswer } from '#shared/http/answers';
import { cursorPaged } from '#shared/http/envelopes';
import { PortalEventQuery, EventEntryResource } from '#shared/portal/contract/my-account';
import { route } from '#shared/http/route';
import { listPortalEvents } from '#shared/portal/use-cases/catalogue';

export const handler = route('GET /my-account/event', { query: PortalEventQuery }, async ({ query, caller }) =>
  cursorPaged(
    await listPortalEvents(caller.id, {
      title: query.title,
      search: query.search,
      fromEventStart: query.fromEventStart,
      toEventStart: query.toEventStart,
      scope: query.return,
      limit: query._limit,
      offset: query._offset,
      cursor: query._cursor,
    }),
  ),
);

export const answer = () => CursorPageAnswer(EventEntryResource);
