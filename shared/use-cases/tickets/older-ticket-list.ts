import { findTicketType } from '../../data/events.ts';
import { countListed, countTypeListed } from '../../data/ticket-stats.ts';
import {
  customerSummaries,
  customerTickets,
  eventPurchases,
  eventTickets,
  orderAffiliates,
  orderTickets,
  ticketByBarcode,
  ticketUpdates,
  typeTickets,
  waveTimes,
  type IndexRead,
} from '../../data/ticket-list-queries.ts';
import {
  checkIncludes,
  isEventAlone,
  isTypeAlone,
  listOrder,
  matchesFilters,
  MAX_LIST_READ,
  servingIndex,
  toListedTicket,
  type ListedTicket,
  type OlderTicketFilters,
  type OlderTicketInclude,
  type PageRelations,
  type ServingIndex,
} from '../../domain/older-ticket-list.ts';
import type { Page } from '../../domain/paging.ts';
import type { TicketRecord } from '../../domain/ticket.ts';
import type { TicketWaiver } from '../../domain/waivers.ts';
import { inScope, ticketInScope, type EventScope } from '../event-scope.ts';
import { listTicketWaivers } from './ticket-waivers.ts';

export interface OlderTicketListRequest extends OlderTicketFilters {
  include: readonly OlderTicketInclude[];
  limit: number;
  offset: number;
}

/** A page of the list, and whether the read bound (MAX_LIST_READ) cut it. */
export interface OlderTicketPage extends Page<ListedTicket> {
  truncated: boolean;
}

function readServing(serving: ServingIndex, budget: number): Promise<IndexRead> {
  switch (serving.kind) {
    case 'barcode': return ticketByBarcode(serving.barcode);
    case 'order': return orderTickets(serving.orderId, budget);
    case 'customer': return customerTickets(serving.customerId, budget);
    case 'updates': return ticketUpdates(serving, budget);
    case 'purchases': return eventPurchases(serving.eventId, serving, budget);
    case 'type': return typeTickets(serving.typeId, budget);
    case 'event': return eventTickets(serving.eventId, budget);
  }
}

/**
 * `GET /ticket`: the serving index read (at most MAX_LIST_READ items), the other filters
 * applied on top, ordered, then the page's expansions, each one batch per page. `eventId`
 * alone reads only up to the page (by id) and counts from the event's kept counts;
 * `typeId` (with or without `eventId`) likewise from the type's index and counts.
 * A scoped caller sees only the tickets its scope reaches (event-scope.ts, `granted`): an
 * `eventId` outside it is an empty page; other serving indexes are filtered as read.
 */
export async function listOlderTickets(request: OlderTicketListRequest, scope?: EventScope): Promise<OlderTicketPage> {
  const { include, limit, offset, ...filters } = request;
  checkIncludes(include, limit);
  const nothing = { totalCount: 0, limit, offset, items: [], truncated: false };
  if (filters.eventId !== undefined && !inScope(scope, filters.eventId)) return nothing;
  const serving = servingIndex(filters);
  const eventAlone = isEventAlone(filters);
  const alone = eventAlone || isTypeAlone(filters);
  // A type alone is served from its index and counts only when its event is in scope (then all its tickets are).
  const typeOwner = isTypeAlone(filters) && scope ? await typeEvent(filters.typeId!, filters.eventId) : undefined;
  if (typeOwner !== undefined && !inScope(scope, typeOwner)) return nothing;
  const total = eventAlone ? countListed([filters.eventId!]) : alone ? typeCount(filters.typeId!, filters.eventId) : undefined;
  total?.catch(() => undefined); // awaited below; handled here in case the Query fails first
  const read = await readServing(serving, alone ? Math.min(offset + limit, MAX_LIST_READ) : MAX_LIST_READ);
  const matches = read.records
    .filter((record) => matchesFilters(record, filters, serving) && ticketInScope(scope, record, 'granted'))
    .sort(listOrder(serving));
  const records = matches.slice(offset, offset + limit);
  const related = await readRelations(records, include);
  return {
    totalCount: total ? await total : matches.length,
    limit,
    offset,
    items: records.map((record) => toListedTicket(record, include, related)),
    // eventId or typeId alone reads only what the page needs: it is cut only when the page lies past the bound.
    truncated: alone ? offset + limit > MAX_LIST_READ && !read.complete : !read.complete,
  };
}

/** A type's live tickets from its event's kept counts (0 when `eventId` names another event: nothing matches). */
async function typeCount(typeId: number, eventId: number | undefined): Promise<number> {
  const owner = await typeEvent(typeId, eventId);
  return owner === undefined ? 0 : countTypeListed(owner, typeId);
}

/** The event whose tickets a type filter lists: the named one, else the type's own (undefined for an unknown type). */
const typeEvent = async (typeId: number, eventId: number | undefined): Promise<number | undefined> =>
  eventId ?? (await findTicketType(typeId))?.eventId;

async function readRelations(records: TicketRecord[], include: readonly OlderTicketInclude[]): Promise<PageRelations> {
  const ids = <T>(pick: (record: TicketRecord) => T | null | undefined) => records.flatMap((record) => pick(record) ?? []) as T[];
  const [affiliates, waves, users, waivers] = await Promise.all([
    include.includes('promoter') ? orderAffiliates(ids((record) => record.orderId)) : new Map<number, string | null>(),
    include.includes('waveTime')
      ? waveTimes(ids((record) => (record.waveTimeId == null ? null : { eventId: record.eventId, id: record.waveTimeId })))
      : new Map(),
    include.includes('user') ? customerSummaries(ids((record) => record.customerId)) : new Map(),
    include.includes('waivers') ? waiversOf(records) : new Map<number, TicketWaiver[]>(),
  ]);
  return { affiliates, waves, users, waivers };
}

/** Each ticket's waivers as `GET /tickets/{id}/waivers` answers them (a page of at most MAX_WAIVER_PAGE). */
async function waiversOf(records: TicketRecord[]): Promise<Map<number, TicketWaiver[]>> {
  // A deleted ticket (the sync lists them) has no waivers to sign any more.
  const lists = await Promise.all(records.map((record) => (record.deleted ? [] : listTicketWaivers(record.id))));
  return new Map(records.map((record, i) => [record.id, lists[i]!]));
}
