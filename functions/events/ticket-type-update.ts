import { SingleAnswer } from '#shared/http/answers';
import { PathEventType, TicketTypePatchBody, TicketTypeResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { updateTicketTypeFor } from '#shared/events/use-cases/ticket-types';

/** A `total` below `sold` is 409 `total_below_sold`; the event's `capacity` follows `total`. */
export const handler = route(
  'PATCH /events/{id}/ticket-types/{typeId}',
  { path: PathEventType, body: TicketTypePatchBody },
  async ({ path, body, caller }) => single(await updateTicketTypeFor(caller, path.id, path.typeId, body)),
);

export const answer = () => SingleAnswer(TicketTypeResource);
