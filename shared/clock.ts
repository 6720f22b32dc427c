/**
 * The one clock. Everything that stamps or compares time asks here, so tests can
 * move time without touching the system clock.
 */
let offsetMs = 0;

export const now = (): Date => new Date(Date.now() + offsetMs);
export const epochSeconds = (): number => Math.floor(now().getTime() / 1000);

/** Tests only: shift the clock by `ms` (cumulative); `resetClock()` undoes it. */
export const advanceClock = (ms: number): void => {
  offsetMs += ms;
};
export const resetClock = (): void => {
  offsetMs = 0;
};
