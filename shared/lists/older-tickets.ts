/**
 * The door to `GET /ticket` (the older list for integrations): its plan (which index serves a
 * filter set, the rest applied on top), the serving indexes' bounded reads, the customer's and
 * the purchase range's kept counts and positions, and the expansions' batch reads. The page
 * flow and the caller's scope are the use case's (shared/use-cases/tickets/older-ticket-list.ts).
 */
export { customerTicketCount, customerTicketsAt } from './customer-ticket-list.ts';
export { purchasesAt, purchaseSpan } from './purchase-counts.ts';
export { listTicketRecords } from './ticket-lists.ts';
export { checkPaging } from './ticket-list-plan.ts';
export { searchSortOf } from './ticket-search-entries.ts';
export { customerSummaries, orderAffiliates, sortOf, waveTimes } from './ticket-list-queries.ts';
export {
  checkIncludes,
  decodeSortCursor,
  encodeSortCursor,
  isCustomerAlone,
  isEventAlone,
  isPurchaseRangeAlone,
  isTypeAlone,
  isUnfiltered,
  matchesFilters,
  MAX_LIST_READ,
  MAX_SCOPE_SYNC_EVENTS,
  offsetPastRead,
  SERVING_ORDER,
  servingIndex,
  tooSparse,
  type OlderTicketFilters,
  type ServingIndex,
} from './older-ticket-list.ts';
export { eventOf, readServing, readSmallCustomer, readWhole } from './older-ticket-serving.ts';
