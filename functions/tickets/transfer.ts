import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { TransferBody, TicketResource } from '#shared/tickets/contract/tickets';
import { transferTicket } from '#shared/tickets/use-cases/transfer-ticket';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** Answers the new ticket when the event or type changed, else the ticket updated in place. */
export const handler = route(
  'POST /tickets/{id}/transfer',
  { path: PathId, body: TransferBody },
  async ({ path, body, caller, idempotency }) =>
    dataOnly(await transferTicket(path.id, body, adminActor(caller), idempotency)),
);

export const answer = () => DataAnswer(TicketResource);
