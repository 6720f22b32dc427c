import { getTicket } from '#shared/data/tickets';
import { GetQuery } from '#shared/http/ticket-input';
import { PathId } from '#shared/http/bulk';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('GET /tickets/{id}', { path: PathId, query: GetQuery }, async ({ path, query }) =>
  dataOnly(await getTicket(path.id, query._include)),
);
