/**
 * The door to the admission list (`GET /gate-lists/{eventId}`): its full walk by id (the event's
 * own tickets, then those granted into it) and its delta from the events' update-time shards.
 */
export { sortOf, ticketUpdates } from './ticket-list-queries.ts';
export { readGateListPart, type GateListPart } from './gate-list.ts';
