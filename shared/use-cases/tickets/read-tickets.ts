import { readCheckInStats, type CheckInStats } from '../../data/ticket-stats.ts';
import { eventTitles } from '../../data/events.ts';
import { readTicketHistory } from '../../data/ticket-history.ts';
import { listTicketRecords, type TicketListPage, type TicketListQuery } from '../../data/ticket-lists.ts';
import { checkPaging } from '../../domain/ticket-list-plan.ts';
import { readTicketRecord } from '../../data/ticket-records.ts';
import type { Page } from '../../domain/paging.ts';
import type { TicketHistoryPage } from '../../domain/ticket-history.ts';
import { scannedEvents, toTicket, type Ticket, type TicketInclude, type TicketRecord } from '../../domain/ticket.ts';
import { ticketNotFound } from './change-ticket.ts';

/** Tickets as the API answers them, with the asked-for expansions (one BatchGetItem for event names). */
export async function presentTickets(records: TicketRecord[], include: readonly TicketInclude[]): Promise<Ticket[]> {
  const names = include.includes('checkInInfo') ? await eventTitles(records.flatMap(scannedEvents)) : new Map<number, string>();
  return records.map((record) => toTicket(record, include, names));
}

/** A live ticket's record; 404 when missing or soft-deleted. */
export async function liveTicketRecord(id: number): Promise<TicketRecord> {
  const record = await readTicketRecord(id);
  if (!record || record.deleted) throw ticketNotFound(id);
  return record;
}

/** `GET /tickets/{id}`; with `history`, one page of its changes (newest first), read by key. */
export async function getTicket(
  id: number,
  include: readonly TicketInclude[] = [],
  historyPage = { limit: 25, offset: 0 },
): Promise<Ticket & { history?: TicketHistoryPage }> {
  const record = await liveTicketRecord(id);
  const [[ticket], history] = await Promise.all([
    presentTickets([record], include),
    include.includes('history') ? readTicketHistory(id, record.version, historyPage) : undefined,
  ]);
  return history ? { ...ticket!, history: { totalCount: record.version, count: history.length, ...historyPage, data: history } } : ticket!;
}

/** `GET /tickets`: a page of the events' tickets with the asked-for expansions (README "Tickets", lists at scale). */
export async function listTickets(
  query: TicketListQuery & { include: readonly TicketInclude[] },
): Promise<Omit<TicketListPage, 'items'> & Page<Ticket>> {
  checkPaging(query);
  const page = await listTicketRecords(query);
  return { ...page, items: await presentTickets(page.items, query.include) };
}

/** `GET /tickets/check-in-stats`, from the kept counts. */
export const checkInStatistics = (eventIds: number[]): Promise<CheckInStats> => readCheckInStats(eventIds);
