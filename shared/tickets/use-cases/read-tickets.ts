import {
  readCheckInStats,
  listTicketRecords,
  type TicketListPage,
  checkPaging,
  type TicketListQuery,
} from '../../lists/tickets.ts';
import type { CheckInStats } from '../../gate/domain/check-in.ts';
import { eventTitles, findTicketType } from '../../events/data/events.ts';
import { readTicketHistory } from '../data/ticket-history.ts';
import { readTicketRecord } from '../data/ticket-records.ts';
import type { Page } from '../../domain/paging.ts';
import type { TicketHistoryPage } from '../domain/ticket-history.ts';
import type { Ticket, TicketInclude, TicketRecord } from '../domain/ticket.ts';
import { scannedEvents, toTicket } from '../domain/ticket-view.ts';
import {
  assertEventsInScope,
  assertTicketInScope,
  scopeEvents,
  type EventScope,
  type ScopeRule,
} from '../../identity/use-cases/event-scope.ts';
import { ticketNotFound } from './change-ticket.ts';

/** Tickets as the API answers them, with the asked-for expansions (one BatchGetItem for event names). */
export async function presentTickets(records: TicketRecord[], include: readonly TicketInclude[]): Promise<Ticket[]> {
  const names = include.includes('checkInInfo')
    ? await eventTitles(records.flatMap(scannedEvents))
    : new Map<number, string>();
  return records.map((record) => toTicket(record, include, names));
}

/** A live ticket's record; 404 when missing, soft-deleted or outside the caller's events (reads: own or granted). */
export async function liveTicketRecord(
  id: number,
  scope?: EventScope,
  rule: ScopeRule = 'granted',
): Promise<TicketRecord> {
  const record = await readTicketRecord(id);
  if (!record || record.deleted) throw ticketNotFound(id);
  assertTicketInScope(scope, record, rule);
  return record;
}

/** `GET /tickets/{id}`; with `history`, one page of its changes (newest first), read by key. */
export async function getTicket(
  id: number,
  include: readonly TicketInclude[] = [],
  historyPage = { limit: 25, offset: 0 },
  scope?: EventScope,
): Promise<Ticket & { history?: TicketHistoryPage }> {
  const record = await liveTicketRecord(id, scope);
  const [[ticket], history] = await Promise.all([
    presentTickets([record], include),
    include.includes('history') ? readTicketHistory(record, historyPage) : undefined,
  ]);
  return history
    ? { ...ticket!, history: { totalCount: record.version, count: history.length, ...historyPage, data: history } }
    : ticket!;
}

/** `GET /tickets`: a page of the events' tickets with the asked-for expansions (the OpenAPI description of GET /tickets). */
export async function listTickets(
  request: TicketListQuery & { include: readonly TicketInclude[] },
  scope?: EventScope,
): Promise<Omit<TicketListPage, 'items'> & Page<Ticket>> {
  checkPaging(request);
  const query = await eventsOfList(request, scope);
  if (!query.allEvents && !query.events.length && !query.accessEvents.length) {
    return {
      totalCount: 0,
      limit: query.limit,
      offset: query.offset,
      items: [],
      next: null,
      totalCountIsEstimate: false,
    };
  }
  const page = await listTicketRecords(query);
  return { ...page, items: await presentTickets(page.items, query.include) };
}

/**
 * The events a list reads: the requested ones inside the scope (none left is an empty page,
 * README "Event-scoped staff"); for `ticket_types` alone, their events; with no event named,
 * every event the caller may see, newest first (the scope's events, or the all-events list).
 */
async function eventsOfList<Q extends TicketListQuery>(request: Q, scope?: EventScope): Promise<Q> {
  const named = request.events.length > 0 || request.accessEvents.length > 0;
  if (!named && request.ticketTypes?.length) {
    const types = await Promise.all([...new Set(request.ticketTypes)].map((id) => findTicketType(id)));
    return {
      ...request,
      events: scopeEvents(scope, [...new Set(types.flatMap((type) => (type ? [type.eventId] : [])))]),
    };
  }
  if (!named)
    return scope
      ? { ...request, events: [...scope], newestFirst: true }
      : { ...request, allEvents: true, newestFirst: true };
  return {
    ...request,
    events: scopeEvents(scope, request.events),
    accessEvents: scopeEvents(scope, request.accessEvents),
  };
}

/** `GET /tickets/check-in-stats`, from the kept counts; an event outside the caller's scope is a 404. */
export function checkInStatistics(eventIds: number[], scope?: EventScope): Promise<CheckInStats> {
  assertEventsInScope(scope, eventIds);
  return readCheckInStats(eventIds);
}
