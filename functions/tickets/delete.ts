import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { deleteTicket } from '#shared/tickets/use-cases/edit-ticket';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** Soft delete: 204; the ticket leaves lists and statistics, GET answers 404, the record stays. */
export const handler = route('DELETE /tickets/{id}', { path: PathId, status: 204 }, async ({ path, caller }) => {
  await deleteTicket(path.id, adminActor(caller));
  return { status: 204 };
});
