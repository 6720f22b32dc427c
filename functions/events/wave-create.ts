import { SingleAnswer } from '#shared/http/answers';
import { NewWaveBody, WaveTimeResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createWaveFor } from '#shared/events/use-cases/waves';

/** 201 with the wave time. */
export const handler = route(
  'POST /events/{id}/wave-times',
  { path: PathId, body: NewWaveBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createWaveFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(WaveTimeResource);
