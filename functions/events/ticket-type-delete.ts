import { PathEventType } from '#shared/events/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteTicketTypeFor } from '#shared/events/use-cases/ticket-types';

/** 204; only a type with no tickets (409 `type_has_tickets`). */
export const handler = route(
  'DELETE /events/{id}/ticket-types/{typeId}',
  { path: PathEventType, status: 204 },
  async ({ path, caller }) => {
    await deleteTicketTypeFor(caller, path.id, path.typeId);
    return { status: 204 };
  },
);
