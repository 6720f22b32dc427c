import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { TicketUpdateBody, TicketResource } from '#shared/tickets/contract/tickets';
import { updateTicket } from '#shared/tickets/use-cases/edit-ticket';
import { adminActor } from '#shared/identity/use-cases/event-scope';

export const handler = route(
  'PATCH /tickets/{id}',
  { path: PathId, body: TicketUpdateBody },
  async ({ path, body, caller }) => dataOnly(await updateTicket(path.id, body.data, adminActor(caller))),
);

export const answer = () => DataAnswer(TicketResource);
