import { TicketResource } from '#shared/tickets/contract/ticket';
import { SingleAnswer } from '#shared/http/answers';
import { PathId } from '#shared/http/path-params';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { getTicket } from '#shared/tickets/use-cases/read-tickets';

/** The ticket as `GET /tickets/{id}` answers it, in this family's `{count, data}` envelope (the OpenAPI description of the `ticket` tag). */
export const handler = route('GET /ticket/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await getTicket(path.id, [], undefined, caller.eventScope)),
);

export const answer = () => SingleAnswer(TicketResource);
