import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { GetQuery, TicketResource } from '#shared/tickets/contract/tickets';
import { getTicket } from '#shared/tickets/use-cases/read-tickets';

export const handler = route('GET /tickets/{id}', { path: PathId, query: GetQuery }, async ({ path, query, caller }) =>
  dataOnly(
    await getTicket(
      path.id,
      query._include,
      { limit: query.history_limit, offset: query.history_offset },
      caller.eventScope,
    ),
  ),
);

export const answer = () => DataAnswer(TicketResource);
