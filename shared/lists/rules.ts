/**
 * The lists' pure rules that a contract, the OpenAPI document or a test names without reading
 * anything (no module behind this door touches the table): limits, cursors, includes.
 */
export { checkPaging, decodeCursor, encodeCursor, MAX_COUNTED_PAIRS } from './ticket-list-plan.ts';
export {
  decodeSortCursor,
  encodeSortCursor,
  MAX_LIST_READ,
  MAX_SCOPE_SYNC_EVENTS,
  MAX_WAIVER_PAGE,
} from './older-ticket-list.ts';
