import { checkIncludes, checkPaging, olderTicketPage, type ListScope } from '../../lists/older-tickets.ts';
import type { OlderTicketListQuery } from '../domain/older-ticket-query.ts';
import { toListedTicket, type ListedTicket } from '../domain/older-ticket-view.ts';
import type { Page } from '../../domain/paging.ts';
import { inScope, ticketInScope, type EventScope } from '../../identity/use-cases/event-scope.ts';
import { readRelations } from './older-ticket-expansions.ts';

/** A page of the list, the cursor of the following one (null on the last), and whether `totalCount` is only a lower bound. */
export interface OlderTicketPage extends Page<ListedTicket> {
  next: string | null;
  totalCountIsEstimate: boolean;
}

/** What the caller's scope lets the list read, by the scope's one rule (event-scope.ts). */
const listScope = (scope: EventScope): ListScope => ({
  events: scope,
  holds: (eventId) => inScope(scope, eventId),
  reaches: (record, rule) => ticketInScope(scope, record, rule),
});

/**
 * `GET /ticket`: the paging and expansions checked, the page of records read by the list
 * engine within the caller's scope (shared/lists/older-ticket-pages.ts says which filters
 * make which page), then the page's expansions, each one batch per page.
 */
export async function listOlderTickets(query: OlderTicketListQuery, scope?: EventScope): Promise<OlderTicketPage> {
  const { _include: include, _limit: limit, _offset: offset, _cursor: cursor, ...filters } = query;
  checkIncludes(include, limit);
  checkPaging({ offset, cursor });
  const page = await olderTicketPage(filters, { limit, offset, cursor }, listScope(scope));
  const related = await readRelations(page.records, include);
  return {
    totalCount: page.totalCount,
    limit,
    offset,
    items: page.records.map((record) => toListedTicket(record, include, related)),
    next: page.next,
    totalCountIsEstimate: page.totalCountIsEstimate,
  };
}
