import { updateTicket } from '#shared/data/tickets';
import { TicketUpdateBody } from '#shared/http/ticket-input';
import { PathId } from '#shared/http/bulk';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('PATCH /tickets/{id}', { path: PathId, body: TicketUpdateBody }, async ({ path, body }) =>
  dataOnly(await updateTicket(path.id, body.data)),
);
