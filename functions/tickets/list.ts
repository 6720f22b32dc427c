import { cursorPaged } from '#shared/http/envelopes';
import { CursorPageAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { TicketListQuery, TicketResource } from '#shared/tickets/contract/tickets';
import { listTickets } from '#shared/tickets/use-cases/read-tickets';

export const handler = route('GET /tickets', { query: TicketListQuery }, async ({ query, caller }) => {
  const page = await listTickets(
    {
      events: [...(query.event ? [query.event] : []), ...(query.events ?? [])],
      accessEvents: query.accessEvents ?? [],
      teams: query.teams,
      ticketTypes: query.ticket_types,
      excludeProcessStates: query.exclude_process_states,
      include: query._include,
      limit: query._limit,
      offset: query._offset,
      cursor: query._cursor,
    },
    caller.eventScope,
  );
  return cursorPaged(page);
});

export const answer = () => CursorPageAnswer(TicketResource);
