import { SingleAnswer } from '#shared/http/answers';
import { NewWaiverBody, WaiverResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createWaiverFor } from '#shared/events/use-cases/waivers';

/** 201 with the waiver. */
export const handler = route(
  'POST /events/{id}/waivers',
  { path: PathId, body: NewWaiverBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createWaiverFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(WaiverResource);
