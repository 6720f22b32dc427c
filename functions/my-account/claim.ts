import { TicketResource, AcceptClaimBody } from '#shared/portal/contract/my-account';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { acceptClaim } from '#shared/tickets/use-cases/accept-claim';

/** The claimant, signed in, accepts the ticket of a claim link into their account (the OpenAPI description of POST /my-account/claim). */
export const handler = route('POST /my-account/claim', { body: AcceptClaimBody }, async ({ body, caller }) =>
  single((await acceptClaim(body.token, caller.id)).ticket),
);

export const answer = () => SingleAnswer(TicketResource);
