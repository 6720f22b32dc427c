import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { printTicket } from '#shared/portal/use-cases/ticket-pdf';

/** The printable ticket: `application/pdf`, one page, shown in the browser (`inline`). */
export const handler = route(
  'GET /my-account/tickets/{ticketId}/pdf',
  { path: PathTicketId, binary: 'application/pdf' },
  async ({ path, caller }) => {
    const { fileName, pdf } = await printTicket(caller.id, path.ticketId);
    return {
      binary: { contentType: 'application/pdf', bytes: pdf },
      headers: { 'Content-Disposition': `inline; filename="${fileName}"` },
    };
  },
);
