import { ClaimInfoResource, ClaimantBody } from '#shared/tickets/contract/ticket';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { changeClaimant } from '#shared/tickets/use-cases/claims';
import { adminActor } from '#shared/identity/use-cases/event-scope';

/** Sends an open claim to another claimant: the old link is voided, the new address gets a new one. */
export const handler = route(
  'POST /ticket/{ticketId}/claimant',
  { path: PathTicketId, body: ClaimantBody },
  async ({ path, body, caller }) =>
    single(
      await changeClaimant(
        path.ticketId,
        { claimantEmail: body.claimantEmail, claimantUserId: body.claimantuserId },
        adminActor(caller),
      ),
    ),
);

export const answer = () => SingleAnswer(ClaimInfoResource);
