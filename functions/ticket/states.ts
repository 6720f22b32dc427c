import { toTicket } from '#shared/tickets/domain/ticket-view';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { StatesBody, TicketResource } from '#shared/tickets/contract/ticket';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** The explicit state change; undoing a check-in also takes `checkin:undo` (the state machine in the OpenAPI description of the `tickets` tag). */
export const handler = route(
  'POST /ticket/{ticketId}/states',
  { path: PathTicketId, body: StatesBody },
  async ({ path, body, caller }) => {
    const record = await changeTicketStates(path.ticketId, body, adminActor(caller), {
      mayUndoCheckIn: caller.permissions.includes('checkin:undo'),
    });
    return single(toTicket(record));
  },
);

export const answer = () => SingleAnswer(TicketResource);
