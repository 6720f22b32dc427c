import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { withSold } from '../../selling/data/stock.ts';
import { readTicketRecord } from '../../tickets/data/ticket-records.ts';
import { upgradeOptions, type UpgradeOption } from '../domain/upgrade.ts';
import { NotFound } from '../../errors.ts';

/**
 * `GET /my-account/upgrades/{ticketId}`: the ticket must be the caller's and not deleted;
 * anyone else's ticket is 404 exactly like a missing one (never 403, never its data).
 */
export async function ticketUpgradeOptions(customerId: number, ticketId: number): Promise<UpgradeOption[]> {
  const ticket = await readTicketRecord(ticketId);
  if (!ticket || ticket.deleted || ticket.customerId !== customerId) throw new NotFound('Ticket', ticketId);
  const [types, event] = await Promise.all([listTicketTypes(ticket.eventId).then(withSold), getEvent(ticket.eventId)]);
  return upgradeOptions(ticket, types, event);
}
