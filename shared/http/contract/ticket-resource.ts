/** The ticket as the API answers it: its schema lives with the domain types inferred from it. */
export { TICKET_ACTIONS, TicketHistoryEntryResource, TicketResource } from '../../domain/ticket-resource.ts';
