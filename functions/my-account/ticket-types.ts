import * as z from '#shared/schema';
import { PageAnswer } from '#shared/http/answers';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { PathEventId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { TicketTypeEntryResource } from '#shared/portal/contract/my-account';
import { listPortalTicketTypes } from '#shared/portal/use-cases/catalogue';

export const handler = route(
  'GET /my-account/ticket-type/{eventId}',
  { path: PathEventId, query: z.strictObject(pagingQuery) },
  async ({ path, query, caller }) =>
    paged(await listPortalTicketTypes(caller.id, path.eventId, { limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(TicketTypeEntryResource);
