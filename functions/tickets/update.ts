import { PathId } from '#shared/http/bulk';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { TicketUpdateBody } from '#shared/http/ticket-input';
import { updateTicket } from '#shared/use-cases/tickets/edit-ticket';

export const handler = route('PATCH /tickets/{id}', { path: PathId, body: TicketUpdateBody }, async ({ path, body, caller }) =>
  dataOnly(await updateTicket(path.id, body.data, { kind: 'admin', id: caller.id })),
);
