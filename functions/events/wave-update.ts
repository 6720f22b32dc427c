import { SingleAnswer } from '#shared/http/answers';
import { PathEventWave, WavePatchBody, WaveTimeResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { updateWaveFor } from '#shared/events/use-cases/waves';

/** The wave time as changed; readers read it by id, so the change shows at once. */
export const handler = route(
  'PATCH /events/{id}/wave-times/{waveId}',
  { path: PathEventWave, body: WavePatchBody },
  async ({ path, body, caller }) => single(await updateWaveFor(caller, path.id, path.waveId, body)),
);

export const answer = () => SingleAnswer(WaveTimeResource);
