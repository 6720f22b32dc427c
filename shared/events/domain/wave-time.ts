import * as z from '../../schema.ts';
import type { WaveTime } from './event.ts';
import { formatInTimeZone } from '../../domain/zoned-time.ts';

/** A wave time as the portal answers it (`GET /my-account/wave-time/{eventId}`): the start in the event's own offset. Pure. */
export const WaveTimeResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    eventId: z.int(),
    name: z.string(),
    startTime: z.iso.datetime({ offset: true }).check(z.describe("ISO-8601 with the event's own offset.")),
    capacity: z.int(),
  }),
);
export type WaveTimeEntry = z.output<typeof WaveTimeResource>;

/** An event's waves by start time, then id, in the event's time zone. */
export function waveTimeEntries(waves: readonly WaveTime[], timezone: string): WaveTimeEntry[] {
  return [...waves]
    .sort((a, b) => a.startTime.localeCompare(b.startTime) || a.id - b.id)
    .map((wave) => ({
      id: wave.id,
      eventId: wave.eventId,
      name: wave.name,
      startTime: formatInTimeZone(new Date(wave.startTime), timezone),
      capacity: wave.capacity,
    }));
}
