import { deleteTicket } from '#shared/data/tickets';
import { PathId } from '#shared/http/bulk';
import { route } from '#shared/http/route';

/** Soft delete: 204; the ticket leaves lists and statistics, GET answers 404, the record stays. */
export const handler = route('DELETE /tickets/{id}', { path: PathId }, async ({ path }) => {
  await deleteTicket(path.id);
  return { status: 204 };
});
