import { ClaimInfoResource } from '#shared/tickets/contract/ticket';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { readClaimInfo } from '#shared/tickets/use-cases/claim-reads';

/** The ticket's claim with its state and dates (all null/false when never a claim). */
export const handler = route('GET /ticket/{ticketId}/claim-info', { path: PathTicketId }, async ({ path, caller }) =>
  single(await readClaimInfo(path.ticketId, caller.eventScope)),
);

export const answer = () => SingleAnswer(ClaimInfoResource);
