/**
 * The door to `GET /tickets` (the event lists by id, newest first, any `_offset` from the kept
 * positions, `totalCount` from the kept counts) and the check-in statistics kept beside its
 * counts. README.md here states what they guarantee.
 */
export { listTicketRecords, type TicketListPage } from './ticket-lists.ts';
export { checkPaging, encodeCursor, MAX_COUNTED_PAIRS, type TicketListQuery } from './ticket-list-plan.ts';
export { readCheckInStats } from './ticket-stats.ts';
export { assertUnused, ticketsUsing, type Usage } from './part-usage.ts';
