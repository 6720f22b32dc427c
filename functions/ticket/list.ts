import { CursorPageAnswer } from '#shared/http/answers';
import { cursorPaged } from '#shared/http/envelopes';
import { OlderTicketListQuery, ListedTicketResource } from '#shared/tickets/contract/ticket';
import { route } from '#shared/http/route';
import { listOlderTickets } from '#shared/tickets/use-cases/older-ticket-list';

/** The older list for integrations: filters on keys, expansions, the update-time sync (the OpenAPI description of GET /ticket). */
export const handler = route('GET /ticket', { query: OlderTicketListQuery }, async ({ query, caller }) =>
  cursorPaged(await listOlderTickets(query, caller.eventScope)),
);

export const answer = () => CursorPageAnswer(ListedTicketResource);
