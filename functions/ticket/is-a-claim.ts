import * as z from '#shared/schema';
import { SingleAnswer } from '#shared/http/answers';
import { PathId } from '#shared/http/path-params';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { readClaimInfo } from '#shared/tickets/use-cases/claim-reads';

/** Whether the ticket was sent as a claim, in any state. */
export const handler = route('GET /ticket/{id}/is-a-claim', { path: PathId }, async ({ path, caller }) =>
  single((await readClaimInfo(path.id, caller.eventScope)).isAClaim),
);

export const answer = () => SingleAnswer(z.boolean());
