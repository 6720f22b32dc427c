import { SingleAnswer } from '#shared/http/answers';
import { EventPatchBody, EventResource } from '#shared/events/contract/event';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { updateEventFor } from '#shared/events/use-cases/edit-events';

/** Listing fields, start and `published`; conditional on the version read (409 `stale_version`). */
export const handler = route(
  'PATCH /events/{id}',
  { path: PathId, body: EventPatchBody },
  async ({ path, body, caller }) => single(await updateEventFor(caller, path.id, body)),
);

export const answer = () => SingleAnswer(EventResource);
