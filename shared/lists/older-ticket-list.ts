import { ValidationError } from '../errors.ts';
import { matchesSearch, MIN_SEARCH_WORD, searchKeyOf, searchWords, type SearchKey } from './search-tokens.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import type { OlderTicketInclude } from '../tickets/domain/older-ticket-view.ts';
import type { OlderTicketFilters } from '../tickets/domain/older-ticket-query.ts';

/**
 * `GET /ticket` (the older list for integrations), pure: which filter bounds the read
 * (the serving index), the others applied on top, the order (the expansions' shapes are
 * shared/tickets/domain/older-ticket-view.ts).
 * The reads are in ticket-list-queries.ts and older-ticket-serving.ts, the page flow in
 * older-ticket-pages.ts.
 */

/**
 * Index items one request reads at most when filters are applied on top of the serving
 * index (an event's or a type's list alone pages from kept positions at any depth). A page
 * it cannot fill is a 400 naming narrower filters or the cursor, never a short page.
 */
export const MAX_LIST_READ = 1000;
/** A scoped caller's sync without an event reads its events' own update shards (8 Queries each) when it has at most this many; a wider scope reads every event's, the scope applied on top. */
export const MAX_SCOPE_SYNC_EVENTS = 4;
/** `waivers` costs five reads per ticket (as GET /tickets/{id}/waivers: 2 GetItems, 3 Queries): allowed only on pages this small. */
export const MAX_WAIVER_PAGE = 25;

/** The filters (AND), as `GET /ticket`'s query gives them. */
export type { OlderTicketFilters };

/** What serves the read, most selective first. `updates` is the incremental sync (every ticket by update time). */
export type ServingIndex =
  | { kind: 'barcode'; barcode: string }
  | { kind: 'order'; orderId: number }
  | { kind: 'customer'; customerId: number }
  /** With `eventId` (or `typeId`, whose event it is) the sync reads that event's own changes. */
  | { kind: 'updates'; from?: string; to?: string; eventId?: number; typeId?: number }
  /** `search` within an event (or a type's event), or alone across events: the search index, by the search's longest word. */
  | { kind: 'search'; eventId?: number; typeId?: number; key: SearchKey; ticketId?: number }
  /** A purchase range of an event, or of a type (with or without its event): the type's own purchase list. */
  | { kind: 'purchases'; eventId?: number; typeId?: number; from?: string; to?: string }
  | { kind: 'type'; typeId: number }
  | { kind: 'event'; eventId: number };

const BOUNDING = 'barcode, orderId, customerId, eventId, typeId, updatedFrom or updatedTo';

/** The most selective filter present; 400 naming what to add when none bounds the list. */
export function servingIndex(filters: OlderTicketFilters): ServingIndex {
  const { barcode, orderId, customerId, updatedFrom, updatedTo, eventId, purchasedFrom, purchasedTo, typeId } = filters;
  if (barcode !== undefined) return { kind: 'barcode', barcode };
  if (orderId !== undefined) return { kind: 'order', orderId };
  if (customerId !== undefined) return { kind: 'customer', customerId };
  if (updatedFrom !== undefined || updatedTo !== undefined)
    return { kind: 'updates', from: updatedFrom, to: updatedTo, eventId, typeId };
  // With or without an event: the search index is kept per event and across events; other filters apply on top.
  if (filters.search !== undefined) {
    const word = searchWords(filters.search)[0];
    // A search that is a ticket id also finds that ticket (its id is no token); a one-digit id only that.
    const ticketId = /^\d{1,15}$/.test(filters.search.trim()) ? Number(filters.search.trim()) : undefined;
    if (!word && !ticketId)
      throw new ValidationError(`search needs a word of at least ${MIN_SEARCH_WORD} letters or digits.`, [
        { path: 'query.search', message: `needs a word of at least ${MIN_SEARCH_WORD} letters or digits` },
      ]);
    return {
      kind: 'search',
      eventId,
      typeId,
      key: word ? searchKeyOf(word) : { word: '', exact: false },
      ...(ticketId ? { ticketId } : {}),
    };
  }
  if ((eventId !== undefined || typeId !== undefined) && (purchasedFrom !== undefined || purchasedTo !== undefined))
    return { kind: 'purchases', eventId, typeId, from: purchasedFrom, to: purchasedTo };
  if (typeId !== undefined) return { kind: 'type', typeId };
  if (eventId !== undefined) return { kind: 'event', eventId };
  // Only a purchase range is left (with or without search): it is kept per event.
  throw new ValidationError(`Add one of ${BOUNDING}: a purchase range is read per event.`, [
    { path: 'query.purchasedFrom', message: `needs one of ${BOUNDING}` },
  ]);
}

/** Whether the filters set are exactly `required` (each present) plus any of `optional`. */
const onlyFilters = (
  filters: OlderTicketFilters,
  required: readonly (keyof OlderTicketFilters)[],
  optional: readonly (keyof OlderTicketFilters)[] = [],
): boolean =>
  required.every((name) => filters[name] !== undefined) &&
  Object.entries(filters).every(
    ([name, value]) => value === undefined || [...required, ...optional].includes(name as keyof OlderTicketFilters),
  );

/** Only `eventId` with nothing else: the page is read by id and `totalCount` comes from the event's kept counts. */
export const isEventAlone = (filters: OlderTicketFilters): boolean => onlyFilters(filters, ['eventId']);

/** Only `customerId`: `totalCount` comes from the customer's kept count. */
export const isCustomerAlone = (filters: OlderTicketFilters): boolean => onlyFilters(filters, ['customerId']);

/** No filter at all: every event the caller may see, newest first, as `GET /tickets` without events. */
export const isUnfiltered = (filters: OlderTicketFilters): boolean =>
  Object.values(filters).every((value) => value === undefined);

/** Only `typeId`, with or without `eventId`: the page is read by id from the type's index and `totalCount` comes from the type's kept counts. */
export const isTypeAlone = (filters: OlderTicketFilters): boolean => onlyFilters(filters, ['typeId'], ['eventId']);

/** Only `eventId` and/or `typeId` with `purchasedFrom` and/or `purchasedTo`: the page is found from the event's or the type's purchase counts. */
export const isPurchaseRangeAlone = (filters: OlderTicketFilters): boolean =>
  (filters.purchasedFrom !== undefined || filters.purchasedTo !== undefined) &&
  (filters.eventId !== undefined || filters.typeId !== undefined) &&
  onlyFilters(filters, [], ['eventId', 'typeId', 'purchasedFrom', 'purchasedTo']);

const within = (value: string, from?: string, to?: string) =>
  (from === undefined || value >= from) && (to === undefined || value <= to);

/** Every filter, whichever served the read; deleted tickets only in the sync. */
export function matchesFilters(record: TicketRecord, filters: OlderTicketFilters, serving: ServingIndex): boolean {
  if (record.deleted && serving.kind !== 'updates') return false;
  const purchased = record.purchasedDate ?? record.created;
  return (
    (filters.orderId === undefined || record.orderId === filters.orderId) &&
    (filters.eventId === undefined || record.eventId === filters.eventId) &&
    (filters.typeId === undefined || record.typeId === filters.typeId) &&
    (filters.customerId === undefined || record.customerId === filters.customerId) &&
    (filters.barcode === undefined || record.barcode === filters.barcode) &&
    (filters.search === undefined || matchesSearch(record, filters.search)) &&
    within(purchased, filters.purchasedFrom, filters.purchasedTo) &&
    within(record.updated, filters.updatedFrom, filters.updatedTo)
  );
}

/** The order each serving list is read in, so a `_cursor` resumes by its sort key (the id-ordered lists of an event or a type alone use `GET /tickets`' cursor). */
export const SERVING_ORDER = {
  order: 'id',
  customer: 'id',
  purchases: 'purchase',
  updates: 'update',
  type: 'id',
  event: 'id',
} as const;

/** `_cursor` of a filtered page: opaque to clients; the serving index's sort key after which the next page starts. */
export const encodeSortCursor = (sort: string): string => Buffer.from(`s:${sort}`).toString('base64url');

/** A serving sort key ends in a 10-digit id and holds only key characters (ISO times, prefixes, search tokens' letters). */
const SORT_CURSOR = /^s:([\p{L}\p{N}:.+#_-]{10,80})$/u;

export function decodeSortCursor(cursor: string): string {
  const match = SORT_CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !/\d{10}$/.test(match[1]!)) {
    throw new ValidationError(
      '_cursor is not a cursor this list answered: pass `next` from a previous page of the same query unchanged.',
      [{ path: 'query._cursor', message: 'unknown cursor' }],
    );
  }
  return match[1]!;
}

/** 400: `_offset` + `_limit` past what one request reads for these filters; the cursor walks any depth. */
export function offsetPastRead(): ValidationError {
  const message = `With these filters a page at _offset + _limit past ${MAX_LIST_READ} would read more than one request may: walk the list with each page's \`next\` as _cursor, or filter by eventId or typeId alone, or eventId with a purchase range alone, which page by _offset at any depth.`;
  return new ValidationError(message, [
    {
      path: 'query._offset',
      message: `_offset + _limit must stay within ${MAX_LIST_READ} with these filters; continue with _cursor`,
    },
  ]);
}

const BOUNDING_READS =
  'narrow the list with a filter that bounds it (barcode, orderId, customerId, eventId with purchasedFrom/purchasedTo, typeId)';

/**
 * 400: the filters on top of the serving index matched too few of the MAX_LIST_READ items one
 * request reads to fill the page. It names the field that thinned the read and the narrower
 * query: a sync without an event (a scoped caller's, past MAX_SCOPE_SYNC_EVENTS) is answered
 * per event.
 */
export function tooSparse(filters: OlderTicketFilters): ValidationError {
  const sync = filters.updatedFrom !== undefined || filters.updatedTo !== undefined;
  const [path, narrower] =
    filters.search !== undefined
      ? ['query.search', BOUNDING_READS]
      : sync && filters.eventId === undefined && filters.typeId === undefined
        ? [
            `query.${filters.updatedFrom !== undefined ? 'updatedFrom' : 'updatedTo'}`,
            "sync each of your events with eventId (its page reads only that event's changes)",
          ]
        : ['query', BOUNDING_READS];
  const message = `Fewer than a page of matches among the ${MAX_LIST_READ} tickets one request reads: ${narrower}, or page on from \`next\` when one is answered.`;
  return new ValidationError(message, [{ path, message: `matches too sparse within ${MAX_LIST_READ} tickets read` }]);
}

/** 400 when the page asks for `waivers` on more than MAX_WAIVER_PAGE tickets. */
export function checkIncludes(include: readonly OlderTicketInclude[], limit: number): void {
  if (include.includes('waivers') && limit > MAX_WAIVER_PAGE) {
    const message = `_include=waivers costs five reads per ticket: use _limit of at most ${MAX_WAIVER_PAGE}.`;
    throw new ValidationError(message, [
      { path: 'query._limit', message: `must be at most ${MAX_WAIVER_PAGE} with _include=waivers` },
    ]);
  }
}
