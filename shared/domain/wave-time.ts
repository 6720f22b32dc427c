import type { WaveTime } from './event.ts';
import { formatInTimeZone } from './zoned-time.ts';

/** A wave time as the portal answers it: the start in the event's own offset. Pure. */
export interface WaveTimeEntry {
  id: number;
  eventId: number;
  name: string;
  /** ISO-8601 with the event's offset. */
  startTime: string;
  capacity: number;
}

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
