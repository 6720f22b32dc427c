import * as z from '#shared/schema';
import { PathEventId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { WaveTimeResource } from '#shared/portal/contract/my-account';
import { listPortalWaveTimes } from '#shared/portal/use-cases/catalogue';

/** `{count, data}`: an event's waves (at most 50), not paged. */
export const handler = route('GET /my-account/wave-time/{eventId}', { path: PathEventId }, async ({ path, caller }) => {
  const waves = await listPortalWaveTimes(caller.id, path.eventId);
  return { body: { count: waves.length, data: waves } };
});

export const answer = () => z.strictObject({ count: z.int(), data: z.array(WaveTimeResource) });
