import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { deleteEventFor } from '#shared/events/use-cases/delete-event';

/** 204; only an event that never had tickets (409 `event_has_tickets`: unpublish it instead). */
export const handler = route('DELETE /events/{id}', { path: PathId, status: 204 }, async ({ path, caller }) => {
  await deleteEventFor(caller, path.id);
  return { status: 204 };
});
