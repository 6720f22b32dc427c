import { getEvent } from '../../events/data/events.ts';
import type { EventScope } from '../../identity/use-cases/event-scope.ts';
import { getTicket } from './read-tickets.ts';
import { requiredWaivers, ticketSignatures } from '../../events/data/waivers.ts';
import { ticketWaivers, type SignedStatus, type TicketWaiver } from '../../events/domain/waivers.ts';

/**
 * `GET /tickets/{id}/waivers`: the waivers the ticket's event and type require, day-of
 * ones included, with signed status and the signed date in the event's time zone.
 * Two round trips: the ticket with its signatures, then the event with its waivers.
 */
export async function listTicketWaivers(
  ticketId: number,
  signedStatus?: SignedStatus,
  scope?: EventScope,
): Promise<TicketWaiver[]> {
  const [ticket, signatures] = await Promise.all([
    getTicket(ticketId, [], undefined, scope),
    ticketSignatures(ticketId),
  ]);
  const [event, required] = await Promise.all([
    getEvent(ticket.eventId),
    requiredWaivers(ticket.eventId, ticket.typeId),
  ]);
  return ticketWaivers(required, signatures, event.timezone, signedStatus);
}
