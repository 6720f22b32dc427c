import { setTimeout } from 'node:timers/promises';

/**
 * The one clock. Everything that stamps or compares time asks here, so tests can
 * move time without touching the system clock, and can see an answer's floor without
 * sleeping through it.
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

/** The floors recorded in place of waiting them out, since `recordFloors()`; undefined: they are waited out. */
let floorsRecorded: number[] | undefined;

/**
 * Holds an answer back until `floorMs` have passed since `startedMs` (a `performance.now()`), so how long the work
 * took does not show in the response time (the forgot-password answer).
 */
export async function waitOutFloor(startedMs: number, floorMs: number): Promise<void> {
  if (floorsRecorded) floorsRecorded.push(floorMs);
  else await setTimeout(Math.max(0, floorMs - (performance.now() - startedMs)));
}

/**
 * Tests only: from now on `waitOutFloor` records each floor and returns at once; the list returned grows with them
 * (the same list on every call). A floor is asserted, not timed, and a run does not sleep through it (74 answers, 38 s,
 * in a full `npm test`).
 */
export const recordFloors = (): readonly number[] => (floorsRecorded ??= []);
