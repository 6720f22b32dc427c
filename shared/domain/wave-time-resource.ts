import * as z from '../schema.ts';
import type { WaveTimeEntry } from './wave-time.ts';

/** `GET /my-account/wave-time/{eventId}`: an event's start waves, by start time. */
export const WaveTimeResource = z.strictObject({
  id: z.int(),
  eventId: z.int(),
  name: z.string(),
  startTime: z.iso.datetime({ offset: true }).check(z.describe("ISO-8601 with the event's own offset.")),
  capacity: z.int(),
});

true satisfies z.Same<z.output<typeof WaveTimeResource>, WaveTimeEntry>;
