import { ValidationError } from '../errors.ts';
import type { TicketWaiver } from './waivers.ts';
import { toTicket, type Ticket, type TicketClaim, type TicketRecord, type TicketRefund } from './ticket.ts';

/**
 * `GET /ticket` (the older list for integrations), pure: which filter bounds the read
 * (the serving index), the others applied on top, the order, and the expansions' shapes.
 * The reads are in shared/data/ticket-list-queries.ts, the flow in
 * shared/use-cases/tickets/older-ticket-list.ts.
 */

/** `_include` values (README "Older ticket routes"). */
export const OLDER_TICKET_INCLUDES = ['costs', 'refundProtect', 'change', 'promoter', 'waveTime', 'waivers', 'user'] as const;
export type OlderTicketInclude = (typeof OLDER_TICKET_INCLUDES)[number];

/** Index items one request reads at most; past it the answer is cut (`X-List-Truncated: true`). */
export const MAX_LIST_READ = 1000;
/** `waivers` costs five reads per ticket (as GET /tickets/{id}/waivers: 2 GetItems, 3 Queries): allowed only on pages this small. */
export const MAX_WAIVER_PAGE = 25;

/** The filters (AND); instants are ISO-8601 UTC, ranges inclusive. */
export interface OlderTicketFilters {
  orderId?: number;
  eventId?: number;
  typeId?: number;
  customerId?: number;
  barcode?: string;
  search?: string;
  purchasedFrom?: string;
  purchasedTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
}

/** What serves the read, most selective first. `updates` is the incremental sync (GSI6). */
export type ServingIndex =
  | { kind: 'barcode'; barcode: string }
  | { kind: 'order'; orderId: number }
  | { kind: 'customer'; customerId: number }
  | { kind: 'updates'; from?: string; to?: string }
  | { kind: 'purchases'; eventId: number; from?: string; to?: string }
  | { kind: 'type'; typeId: number }
  | { kind: 'event'; eventId: number };

const BOUNDING = 'barcode, orderId, customerId, eventId, typeId, updatedFrom or updatedTo';

/** The most selective filter present; 400 naming what to add when none bounds the list. */
export function servingIndex(filters: OlderTicketFilters): ServingIndex {
  const { barcode, orderId, customerId, updatedFrom, updatedTo, eventId, purchasedFrom, purchasedTo, typeId } = filters;
  if (barcode !== undefined) return { kind: 'barcode', barcode };
  if (orderId !== undefined) return { kind: 'order', orderId };
  if (customerId !== undefined) return { kind: 'customer', customerId };
  if (updatedFrom !== undefined || updatedTo !== undefined) return { kind: 'updates', from: updatedFrom, to: updatedTo };
  if (eventId !== undefined && (purchasedFrom !== undefined || purchasedTo !== undefined)) return { kind: 'purchases', eventId, from: purchasedFrom, to: purchasedTo };
  if (typeId !== undefined) return { kind: 'type', typeId };
  if (eventId !== undefined) return { kind: 'event', eventId };
  const field = filters.search !== undefined ? 'search' : purchasedFrom !== undefined || purchasedTo !== undefined ? 'purchasedFrom' : 'eventId';
  const why = field === 'search' ? 'search is applied within a bounding filter' : 'a list is always bounded';
  throw new ValidationError(`Add one of ${BOUNDING}: ${why}.`, [{ path: `query.${field}`, message: `needs one of ${BOUNDING}` }]);
}

/** Only `eventId` with nothing else: the page is read by id and `totalCount` comes from the event's kept counts. */
export const isEventAlone = (filters: OlderTicketFilters): boolean =>
  filters.eventId !== undefined && Object.entries(filters).every(([name, value]) => name === 'eventId' || value === undefined);

/** Only `typeId`, with or without `eventId`: the page is read by id from the type's index and `totalCount` comes from the type's kept counts. */
export const isTypeAlone = (filters: OlderTicketFilters): boolean =>
  filters.typeId !== undefined && Object.entries(filters).every(([name, value]) => name === 'typeId' || name === 'eventId' || value === undefined);

const within = (value: string, from?: string, to?: string) => (from === undefined || value >= from) && (to === undefined || value <= to);

/** `search`: a case-insensitive substring of the attendee's first or last name, email, barcode or bib. */
export function matchesSearch(record: TicketRecord, search: string): boolean {
  const needle = search.toLowerCase();
  return [record.partyMember, record.partyMemberLastName, record.emailAddress, record.barcode, record.bibNumber].some(
    (field) => !!field && field.toLowerCase().includes(needle),
  );
}

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

/** The answer's order: (updated, id) for the sync, so a client resumes from the last `updated` it saw; id otherwise. */
export function listOrder(serving: ServingIndex): (a: TicketRecord, b: TicketRecord) => number {
  if (serving.kind === 'updates') return (a, b) => a.updated.localeCompare(b.updated) || a.id - b.id;
  return (a, b) => a.id - b.id;
}

/** 400 when the page asks for `waivers` on more than MAX_WAIVER_PAGE tickets. */
export function checkIncludes(include: readonly OlderTicketInclude[], limit: number): void {
  if (include.includes('waivers') && limit > MAX_WAIVER_PAGE) {
    const message = `_include=waivers costs five reads per ticket: use _limit of at most ${MAX_WAIVER_PAGE}.`;
    throw new ValidationError(message, [{ path: 'query._limit', message: `must be at most ${MAX_WAIVER_PAGE} with _include=waivers` }]);
  }
}

// ---- The expansions ------------------------------------------------------------------

export interface TicketCosts {
  price: number;
  taxAmount: number;
  gratuityAmount: number;
  paidUponCheckout: number;
  /** price + taxAmount + gratuityAmount, to the cent. */
  total: number;
}
export interface ListWaveTime {
  id: number;
  name: string;
  /** ISO-8601 UTC, as stored (GET /my-account/wave-times shows it in the event's offset). */
  startTime: string;
  capacity: number;
}
export interface ListUser {
  id: number;
  name: string;
  emailAddress: string;
}

/** A listed ticket: the ticket as `GET /ticket/{id}` answers it, plus the asked-for expansions. */
export interface ListedTicket extends Ticket {
  costs?: TicketCosts;
  refundProtect?: TicketRefund;
  change?: TicketClaim | null;
  promoter?: string | null;
  waveTime?: ListWaveTime | null;
  waivers?: TicketWaiver[];
  user?: ListUser | null;
}

/** What the expansions need beyond the records, read once per page. */
export interface PageRelations {
  affiliates: ReadonlyMap<number, string | null>;
  waves: ReadonlyMap<string, ListWaveTime>;
  users: ReadonlyMap<number, ListUser>;
  waivers: ReadonlyMap<number, TicketWaiver[]>;
}

export const waveKey = (eventId: number, waveTimeId: number): string => `${eventId}/${waveTimeId}`;

export const costsOf = (record: TicketRecord): TicketCosts => ({
  price: record.price,
  taxAmount: record.taxAmount,
  gratuityAmount: record.gratuityAmount,
  paidUponCheckout: record.paidUponCheckout,
  total: Math.round((record.price + record.taxAmount + record.gratuityAmount) * 100) / 100,
});

export function toListedTicket(record: TicketRecord, include: readonly OlderTicketInclude[], related: PageRelations): ListedTicket {
  const out: ListedTicket = toTicket(record);
  const has = (name: OlderTicketInclude) => include.includes(name);
  if (has('costs')) out.costs = costsOf(record);
  if (has('refundProtect')) out.refundProtect = { status: record.refund.status, amount: record.refund.amount };
  // As `_include=change_status` shows it on /tickets.
  if (has('change')) out.change = toTicket(record, ['change_status']).ticketClaim ?? null;
  if (has('promoter')) out.promoter = record.orderId == null ? null : (related.affiliates.get(record.orderId) ?? null);
  if (has('waveTime')) out.waveTime = record.waveTimeId == null ? null : (related.waves.get(waveKey(record.eventId, record.waveTimeId)) ?? null);
  if (has('waivers')) out.waivers = related.waivers.get(record.id) ?? [];
  if (has('user')) out.user = record.customerId == null ? null : (related.users.get(record.customerId) ?? null);
  return out;
}
