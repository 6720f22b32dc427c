import { ClaimInfoResource, ClaimBody } from '#shared/tickets/contract/ticket';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { openClaim } from '#shared/tickets/use-cases/claims';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** Opens a claim and mails its link to the claimant (the OpenAPI descriptions of this route and the `ticket` tag). */
export const handler = route(
  'POST /ticket/{ticketId}/claim',
  { path: PathTicketId, body: ClaimBody },
  async ({ path, body, caller }) =>
    single(
      await openClaim(
        path.ticketId,
        { claimantEmail: body.claimantEmail, claimantUserId: body.claimantuserId },
        adminActor(caller),
      ),
    ),
);

export const answer = () => SingleAnswer(ClaimInfoResource);
