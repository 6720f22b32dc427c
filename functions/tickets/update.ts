import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { TicketUpdateBody, TicketResource } from '#shared/http/contract/tickets';
import { updateTicket } from '#shared/use-cases/tickets/edit-ticket';
import { adminActor } from '#shared/use-cases/event-scope';

export const handler = route(
  'PATCH /tickets/{id}',
  { path: PathId, body: TicketUpdateBody },
  async ({ path, body, caller }) => dataOnly(await updateTicket(path.id, body.data, adminActor(caller))),
);

export const answer = () => DataAnswer(TicketResource);
