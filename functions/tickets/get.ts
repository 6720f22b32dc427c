import { PathId } from '#shared/http/bulk';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { GetQuery } from '#shared/http/ticket-input';
import { getTicket } from '#shared/use-cases/tickets/read-tickets';

export const handler = route('GET /tickets/{id}', { path: PathId, query: GetQuery }, async ({ path, query }) =>
  dataOnly(await getTicket(path.id, query._include, { limit: query.history_limit, offset: query.history_offset })),
);
