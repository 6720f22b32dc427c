/**
 * The door to `GET /ticket` (the older list for integrations): a page of records for a filter
 * set within the caller's scope (older-ticket-pages.ts: which filters make which page, from
 * the plan of older-ticket-list.ts and the serving reads of older-ticket-serving.ts), the
 * paging and expansion checks, and the expansions' batch reads. The use case
 * (shared/tickets/use-cases/older-ticket-list.ts) checks, reads the page and its expansions.
 */
export { olderTicketPage, type ListScope, type Paging, type RecordPage } from './older-ticket-pages.ts';
export { checkPaging } from './ticket-list-plan.ts';
export { customerSummaries, orderAffiliates, waveTimes } from './ticket-list-queries.ts';
export { checkIncludes, type OlderTicketFilters } from './older-ticket-list.ts';
