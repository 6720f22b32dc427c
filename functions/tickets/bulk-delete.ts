import { deleteTickets } from '#shared/data/tickets';
import { BulkDeleteBody } from '#shared/domain/ticket-input';
import { bulk, bulkEntry } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

/** Soft-deletes each id on its own: `{count, data: [{id, status, error?}]}` in request order. */
export const handler = route('POST /tickets/bulk-delete', { body: BulkDeleteBody }, async ({ body }) => {
  const outcome = await deleteTickets(body.ids);
  return bulk('id', [...outcome].map(([id, error]) => bulkEntry('id', id, error === undefined ? { object: id } : { error })));
});
