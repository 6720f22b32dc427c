import { SingleAnswer } from '#shared/http/answers';
import { NewTicketTypeBody, TicketTypeResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createTicketTypeFor } from '#shared/events/use-cases/ticket-types';

/** 201 with the type; the event's `capacity` grows by its `total` in the same transaction. */
export const handler = route(
  'POST /events/{id}/ticket-types',
  { path: PathId, body: NewTicketTypeBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createTicketTypeFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(TicketTypeResource);
