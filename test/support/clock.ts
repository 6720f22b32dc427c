import { advanceClock, resetClock } from '#shared/clock';

/**
 * Runs `work` with the service's one clock (shared/clock.ts) at `when`, epoch milliseconds
 * or an ISO date-time, and puts the clock back afterwards.
 */
export async function atTime<T>(when: number | string, work: () => Promise<T>): Promise<T> {
  resetClock();
  advanceClock((typeof when === 'string' ? Date.parse(when) : when) - Date.now());
  try {
    return await work();
  } finally {
    resetClock();
  }
}
