import { readTicketRecord } from '../../tickets/data/ticket-records.ts';
import { readTicketSetting } from '../../tickets/data/ticket-setting.ts';
import { printedTicket } from '../../tickets/domain/printed-ticket.ts';
import { PROCESS_STATE } from '../../tickets/domain/ticket.ts';
import { ticketsPdf } from '../../tickets/domain/ticket-pdf.ts';
import { Conflict, NotFound } from '../../errors.ts';

/**
 * `GET /my-account/tickets/{ticketId}/pdf`: the caller's own ticket, printed (one A4 page). Another customer's
 * ticket, a deleted one and a missing one are the same 404. A ticket that would not admit is refused rather
 * than printed, so no page that looks valid exists for it: 409 `cancelled`, `transferred` (its replacement
 * is the ticket to print), `withdrawn`, or `pending` (not paid yet). A checked-in ticket still prints.
 * Cost: one GetItem (the ticket), one BatchGetItem (its event, type and wave).
 */
export async function printTicket(
  customerId: number,
  ticketId: number,
): Promise<{ fileName: string; pdf: Uint8Array }> {
  const ticket = await readTicketRecord(ticketId);
  if (!ticket || ticket.deleted || ticket.customerId !== customerId) throw new NotFound('Ticket', ticketId);
  const refusal =
    ticket.processState === PROCESS_STATE.cancelled
      ? 'cancelled'
      : ticket.transferState === 'transferred'
        ? 'transferred'
        : ticket.withdrawnState === 'withdrawn'
          ? 'withdrawn'
          : ticket.processState === PROCESS_STATE.pending
            ? 'pending'
            : undefined;
  if (refusal) throw new Conflict(`Ticket ${ticketId} is ${refusal}: it admits nobody, so it is not printed.`, refusal);
  const printed = printedTicket(ticket, await readTicketSetting(ticket));
  return {
    fileName: `ticket-${ticket.id}.pdf`,
    pdf: await ticketsPdf([printed], `Ticket ${ticket.id}: ${printed.eventTitle}`),
  };
}
