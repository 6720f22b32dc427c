import * as z from '#shared/schema';
import { SingleAnswer } from '#shared/http/answers';
import { PathId } from '#shared/http/path-params';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { readClaimInfo } from '#shared/tickets/use-cases/claim-reads';

/** Whether the claimant accepted the ticket's claim. */
export const handler = route('GET /ticket/{id}/is-claimed', { path: PathId }, async ({ path, caller }) =>
  single((await readClaimInfo(path.id, caller.eventScope)).isClaimed),
);

export const answer = () => SingleAnswer(z.boolean());
