import * as z from '#shared/schema';
import { paged } from '#shared/http/envelopes';
import { PageAnswer } from '#shared/http/answers';
import { TicketResource } from '#shared/domain/ticket-resource';
import { route } from '#shared/http/route';
import { TicketListQuery } from '#shared/http/ticket-input';
import { listTickets } from '#shared/use-cases/tickets/read-tickets';

/**
 * The page envelope plus `next` (the `_cursor` of the following page, null on the last),
 * and, only when true, `totalCountIsEstimate` (README "Tickets": lists at scale).
 */
const TicketPageAnswer = z.extend(PageAnswer(TicketResource), {
  next: z.nullable(z.string()),
  totalCountIsEstimate: z.optional(z.literal(true)),
});

export const handler = route('GET /tickets', { query: TicketListQuery, response: TicketPageAnswer }, async ({ query, caller }) => {
  const page = await listTickets({
    events: [...(query.event ? [query.event] : []), ...(query.events ?? [])],
    accessEvents: query.accessEvents ?? [],
    teams: query.teams,
    ticketTypes: query.ticket_types,
    excludeProcessStates: query.exclude_process_states,
    include: query._include,
    limit: query._limit,
    offset: query._offset,
    cursor: query._cursor,
  }, caller.eventScope);
  const reply = paged(page);
  return {
    ...reply,
    body: {
      ...(reply.body as object),
      next: page.next,
      ...(page.totalCountIsEstimate ? { totalCountIsEstimate: true } : {}),
    },
  };
});
