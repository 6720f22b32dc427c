import * as z from '#shared/schema';
import { PathEventId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { WaveTimeResource } from '#shared/http/contract/my-account';
import { listPortalWaveTimes } from '#shared/use-cases/portal/catalogue';

/** `{count, data}`: an event's waves (at most 50), not paged. */
const WaveTimeList = z.strictObject({ count: z.int(), data: z.array(WaveTimeResource) });

export const handler = route(
  'GET /my-account/wave-time/{eventId}',
  { path: PathEventId, response: WaveTimeList },
  async ({ path, caller }) => {
    const waves = await listPortalWaveTimes(caller.id, path.eventId);
    return { body: { count: waves.length, data: waves } };
  },
);
