import { SingleAnswer } from '#shared/http/answers';
import { EventResource } from '#shared/events/contract/event';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { readEventFor } from '#shared/events/use-cases/event-reads';

export const handler = route('GET /events/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await readEventFor(caller, path.id)),
);

export const answer = () => SingleAnswer(EventResource);
