import { PathEventWave } from '#shared/events/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteWaveFor } from '#shared/events/use-cases/waves';

/** 204; a wave time that live tickets use stays (409 `in_use`). */
export const handler = route(
  'DELETE /events/{id}/wave-times/{waveId}',
  { path: PathEventWave, status: 204 },
  async ({ path, caller }) => {
    await deleteWaveFor(caller, path.id, path.waveId);
    return { status: 204 };
  },
);
