/**
 * The door to the customer portal's event list (`GET /my-account/event`: the published events
 * and the customer's linked ones by start, searched by word starts, the default query counted
 * exactly), and the cursor and paging rules the order lists share with the ticket lists. What an event's
 * creation, edit or deletion writes for the list is the door event-listing.ts.
 */
export { privateEventCount, publishedEventCount, readEvents, walkPortalEvents } from './portal-event-reads.ts';
export { decodeSortCursor, encodeSortCursor } from './older-ticket-list.ts';
export { checkPaging } from './ticket-list-plan.ts';
