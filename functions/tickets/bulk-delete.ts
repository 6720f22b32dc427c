import { BulkDeleteBody } from '#shared/tickets/contract/tickets';
import { bulk } from '#shared/http/envelopes';
import { BulkAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { deleteTickets } from '#shared/tickets/use-cases/edit-ticket';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** Soft-deletes each id on its own: `{count, data: [{id, status, error?}]}` in request order. */
export const handler = route('POST /tickets/bulk-delete', { body: BulkDeleteBody }, async ({ body, caller }) => {
  const outcome = await deleteTickets(body.ids, adminActor(caller));
  return bulk(
    'id',
    [...outcome].map(([id, error]) => (error === undefined ? { id, object: id } : { id, error })),
  );
});

export const answer = () => BulkAnswer();
