import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { customerTicketsAt, customerTicketCount } from './customer-ticket-list.ts';
import {
  decodeSortCursor,
  encodeSortCursor,
  isCustomerAlone,
  isEventAlone,
  isPurchaseRangeAlone,
  isTypeAlone,
  isUnfiltered,
  matchesFilters,
  MAX_LIST_READ,
  offsetPastRead,
  SERVING_ORDER,
  servingIndex,
  tooSparse,
  type OlderTicketFilters,
  type ServingIndex,
} from './older-ticket-list.ts';
import { eventOf, readServing, readSmallCustomer, readWhole } from './older-ticket-serving.ts';
import { purchasesAt, purchaseSpan } from './purchase-counts.ts';
import { sortOf } from './ticket-list-queries.ts';
import { listTicketRecords } from './ticket-lists.ts';
import { searchSortOf } from './ticket-search-entries.ts';

/**
 * What a caller's event scope lets `GET /ticket` read, as the use case states it
 * (shared/identity/use-cases/event-scope.ts holds the rule; the list only asks it).
 */
export interface ListScope {
  /** The scope's events; undefined: every event. */
  events: readonly number[] | undefined;
  /** Whether an event is in the scope. */
  holds(eventId: number): boolean;
  /** Whether the scope reaches a ticket: by its own event (`own`), or also by an event it grants entry to (`granted`). */
  reaches(record: TicketRecord, rule: 'own' | 'granted'): boolean;
}

/** Every event: an unscoped caller's. */
const EVERY_EVENT: ListScope = { events: undefined, holds: () => true, reaches: () => true };

/** A page of the list's records, before the expansions. */
export interface RecordPage {
  records: TicketRecord[];
  totalCount: number;
  next: string | null;
  totalCountIsEstimate: boolean;
}

export interface Paging {
  limit: number;
  offset: number;
  /** The `next` of the previous page (then `offset` is 0). */
  cursor?: string;
}

/** Where the next page of a served list resumes: the serving index's sort key of the page's last ticket. */
const nextSortOf = (serving: Exclude<ServingIndex, { kind: 'barcode' | 'order' }>, record: TicketRecord): string =>
  serving.kind === 'search' ? searchSortOf(record, serving.key.word) : sortOf(SERVING_ORDER[serving.kind], record);

const EMPTY: RecordPage = { records: [], totalCount: 0, next: null, totalCountIsEstimate: false };

/**
 * `GET /ticket`'s page of records (the use case, shared/tickets/use-cases/older-ticket-list.ts,
 * checks the paging and reads the page's expansions, each one batch per page). `eventId` or
 * `typeId` alone (the integrations' usual walk) is the id-ordered list of `GET /tickets`: any
 * `_offset` from the kept positions, exact counts; no filter at all is its list across
 * events, newest first; `eventId` and/or `typeId` with a purchase range alone is positioned
 * and counted by the event's or the type's purchase counts (`purchasesPage`); `customerId`
 * alone is counted by the customer's kept count (`customerPage`). A barcode's or an order's
 * list, and a customer's of at most 100 tickets, is read whole with any other filters, so its
 * total is exact (`servedPage`). Any other filter set reads its serving index (the most
 * selective filter) from the start or after the cursor, the other filters applied on top,
 * until the page and one more match are found (at most MAX_LIST_READ index items: past that a
 * 400 names the narrower query, never a short page). A scoped caller sees only the tickets its
 * scope reaches (`granted`; its sync, its events' own changes): an `eventId` outside it is an
 * empty page; other serving indexes are filtered as read.
 */
export async function olderTicketPage(
  filters: OlderTicketFilters,
  paging: Paging,
  scope: ListScope = EVERY_EVENT,
): Promise<RecordPage> {
  if (filters.eventId !== undefined && !scope.holds(filters.eventId)) return EMPTY;
  if (isUnfiltered(filters)) return acrossEventsPage(paging, scope);
  if (isEventAlone(filters) || isTypeAlone(filters)) return (await positionedPage(filters, paging, scope)) ?? EMPTY;
  if (isPurchaseRangeAlone(filters)) return purchasesPage(filters, paging, scope);
  if (isCustomerAlone(filters) && !scope.events) return customerPage(filters.customerId!, filters, paging);
  return servedPage(filters, paging, scope);
}

/** An event's or a type's tickets alone, as `GET /tickets` pages them; undefined when the type is unknown or its event out of scope. */
async function positionedPage(
  filters: OlderTicketFilters,
  paging: Paging,
  scope: ListScope,
): Promise<RecordPage | undefined> {
  const eventId = await eventOf(filters);
  if (eventId === undefined || !scope.holds(eventId)) return undefined;
  const page = await listTicketRecords({
    events: [eventId],
    accessEvents: [],
    ticketTypes: filters.typeId === undefined ? undefined : [filters.typeId],
    ...paging,
  });
  return { records: page.items, totalCount: page.totalCount, next: page.next, totalCountIsEstimate: false };
}

/** No filter: every event the caller may see (the scope's, or the all-events list), newest first, as `GET /tickets` pages it. */
async function acrossEventsPage(paging: Paging, scope: ListScope): Promise<RecordPage> {
  const events = scope.events ? { events: [...scope.events] } : { events: [], allEvents: true };
  const page = await listTicketRecords({ ...events, accessEvents: [], newestFirst: true, ...paging });
  return { records: page.items, totalCount: page.totalCount, next: page.next, totalCountIsEstimate: false };
}

/**
 * A purchase range alone, of an event or of a type (with or without its event): `totalCount`
 * from the event's or the type's purchase counts (exact), and a page at `_offset` found from
 * them (shared/lists/purchase-counts.ts), so no page reads what precedes it. The first page and
 * a page by `_cursor` are read from their start as any served list. Where one second holds
 * more than MAX_LIST_READ tickets, or the event is not the scoped caller's own, it is that
 * served list throughout.
 */
async function purchasesPage(filters: OlderTicketFilters, paging: Paging, scope: ListScope): Promise<RecordPage> {
  const eventId = await eventOf(filters);
  const holder = eventId === undefined || !scope.holds(eventId) ? undefined : { eventId, typeId: filters.typeId };
  const range = { from: filters.purchasedFrom, to: filters.purchasedTo };
  const fromStart = paging.offset === 0 || paging.cursor !== undefined;
  const [span, served] = await Promise.all([
    holder && purchaseSpan(holder, range, MAX_LIST_READ),
    fromStart ? servedPage(filters, paging, scope) : undefined,
  ]);
  if (!span) return served ?? servedPage(filters, paging, scope);
  const counted = { totalCount: span.total, totalCountIsEstimate: false };
  if (served) return { ...served, ...counted };
  if (paging.offset >= span.total) return { records: [], next: null, ...counted };
  const page = await purchasesAt(holder!, span, span.before + paging.offset, paging.limit, range.to, MAX_LIST_READ);
  if (!page) return servedPage(filters, paging, scope);
  const last = page.records.at(-1);
  return {
    records: page.records,
    next: page.more && last ? encodeSortCursor(sortOf('purchase', last)) : null,
    ...counted,
  };
}

/**
 * `customerId` alone, to an unscoped caller: `totalCount` from the customer's kept count (so
 * exact on every page, and a page at or past the end is empty), the first page and a page by
 * `_cursor` read as any served list, beside the count, and a page at `_offset` found from the
 * customer's kept list positions (`customerTicketsAt`), so no page reads what precedes it.
 */
async function customerPage(customerId: number, filters: OlderTicketFilters, paging: Paging): Promise<RecordPage> {
  const serving = { kind: 'customer', customerId } as const;
  const served = () => boundedPage(filters, serving, acceptOf(filters, serving), paging);
  const fromStart = paging.offset === 0 || paging.cursor !== undefined;
  const [count, first] = await Promise.all([customerTicketCount(customerId), fromStart ? served() : undefined]);
  const counted = { totalCount: count, totalCountIsEstimate: false };
  if (first) return { ...first, ...counted };
  if (paging.offset >= count) return { records: [], next: null, ...counted };
  const page = await customerTicketsAt(customerId, count, paging.offset, paging.limit);
  if (!page) return { ...(await served()), ...counted };
  const last = page.records.at(-1);
  return { records: page.records, next: page.more && last ? encodeSortCursor(sortOf('id', last)) : null, ...counted };
}

/**
 * Any other filter set. A list small enough is read whole, so its total is exact on every page
 * and any `_offset` answers: a barcode's, an order's (at most 50), a customer's of at most
 * WHOLE_CUSTOMER_LIST tickets (with other filters, or to a scoped caller, whom the customer's
 * count does not answer). Else its serving index is read until the page is whole (`boundedPage`).
 */
async function servedPage(filters: OlderTicketFilters, paging: Paging, scope: ListScope): Promise<RecordPage> {
  const serving = servingIndex(filters);
  const accept = acceptOf(filters, serving, scope);
  if (serving.kind === 'barcode' || serving.kind === 'order')
    return wholePage((await readWhole(serving)).records.filter(accept), paging);
  const small = serving.kind === 'customer' ? await readSmallCustomer(serving.customerId) : undefined;
  if (small) return wholePage(small.records.filter(accept), paging);
  return boundedPage(filters, serving, accept, paging, scope);
}

/** What a served read keeps: every filter, and the scope's rule. */
function acceptOf(filters: OlderTicketFilters, serving: ServingIndex, scope: ListScope = EVERY_EVENT) {
  // A scope's sync is its events' changes (what their own shards hold, as the list and the search across a scope are its events'); lookups also reach tickets granted into them.
  const rule = serving.kind === 'updates' ? 'own' : 'granted';
  return (record: TicketRecord) => matchesFilters(record, filters, serving) && scope.reaches(record, rule);
}

/** The serving index read from the start or after the cursor until the page and one more match are found (`olderTicketPage`). */
async function boundedPage(
  filters: OlderTicketFilters,
  serving: Exclude<ServingIndex, { kind: 'barcode' | 'order' }>,
  accept: (record: TicketRecord) => boolean,
  { limit, offset, cursor }: Paging,
  scope: ListScope = EVERY_EVENT,
): Promise<RecordPage> {
  const need = offset + limit + 1;
  if (need > MAX_LIST_READ) throw offsetPastRead();
  const after = cursor === undefined ? undefined : decodeSortCursor(cursor);
  const read = await readServing(serving, { after, need, budget: MAX_LIST_READ, accept }, scope.events);
  if (!read.complete && read.records.length < need) throw tooSparse(filters);
  const records = read.records.slice(offset, offset + limit);
  const more = read.records.length > offset + limit;
  return {
    records,
    // Exact when the read reached the end from the start; else the matches known so far, flagged.
    totalCount: read.records.length,
    next: more ? encodeSortCursor(nextSortOf(serving, records.at(-1)!)) : null,
    totalCountIsEstimate: !read.complete || after !== undefined,
  };
}

/** The matches of a list read whole (a barcode's, an order's, a small customer's), in id order: the exact total on every page, any `_offset`, `next` by id. */
function wholePage(matches: TicketRecord[], { limit, offset, cursor }: Paging): RecordPage {
  const after = cursor === undefined ? undefined : decodeSortCursor(cursor);
  const start = after === undefined ? offset : matches.filter((record) => sortOf('id', record) <= after).length;
  const records = matches.slice(start, start + limit);
  return {
    records,
    totalCount: matches.length,
    next: matches.length > start + limit ? encodeSortCursor(sortOf('id', records.at(-1)!)) : null,
    totalCountIsEstimate: false,
  };
}
