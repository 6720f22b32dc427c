import { SingleAnswer } from '#shared/http/answers';
import { PathEventWaiver, WaiverPatchBody, WaiverResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { updateWaiverFor } from '#shared/events/use-cases/waivers';

/** The waiver as changed; readers read it by id, so the change shows at once. */
export const handler = route(
  'PATCH /events/{id}/waivers/{waiverId}',
  { path: PathEventWaiver, body: WaiverPatchBody },
  async ({ path, body, caller }) => single(await updateWaiverFor(caller, path.id, path.waiverId, body)),
);

export const answer = () => SingleAnswer(WaiverResource);
