import type { Delivery } from './webhooks.ts';

/** When a failed webhook attempt is tried again (README "Webhooks"): the schedule, and the verdict on one attempt. */

/**
 * The retry schedule: exponential from `baseMs`, capped at `capMs`, each delay drawn from its
 * upper half (jitter spreads a receiver's backlog); the last retry falls at `giveUpAfterMs`
 * after the delivery's creation, and a failure then gives it up: retries span that long.
 */
export interface RetrySchedule {
  baseMs: number;
  capMs: number;
  giveUpAfterMs: number;
}

/** Deployed: the first retry within 30 s, then doubling up to every 6 hours, for 3 days. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  baseMs: 30_000,
  capMs: 6 * 60 * 60 * 1000,
  giveUpAfterMs: 3 * 24 * 60 * 60 * 1000,
};

/** The delay before attempt `attempts + 1`, after `attempts` failed ones; `random` in [0, 1). */
export function retryDelay(schedule: RetrySchedule, attempts: number, random: number): number {
  const ceiling = Math.min(schedule.capMs, schedule.baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** What one attempt's outcome means for the delivery and its subscription. */
export type AttemptVerdict = { kind: 'delivered' } | { kind: 'gone' } | { kind: 'retry'; at: Date } | { kind: 'dead' };

/**
 * A `Retry-After` value (delta-seconds or an HTTP date) as milliseconds from `at`; undefined
 * when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, at: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) || !/[a-z]/i.test(trimmed) ? undefined : Math.max(0, date - at.getTime());
}

/**
 * The verdict on one attempt. A 429 or 503 with `Retry-After` waits as asked, capped at the
 * schedule's longest delay (a receiver cannot park a delivery past it) and never sooner than
 * the schedule's own delay; the window's end still gives it up.
 */
export function judgeAttempt(
  answer: { status: number; retryAfter?: string } | { error: string },
  delivery: Pick<Delivery, 'created' | 'attempts'>,
  schedule: RetrySchedule,
  at: Date,
  random: number,
): AttemptVerdict {
  if ('status' in answer && answer.status >= 200 && answer.status < 300) return { kind: 'delivered' };
  if ('status' in answer && answer.status === 410) return { kind: 'gone' };
  const end = Date.parse(delivery.created) + schedule.giveUpAfterMs;
  if (at.getTime() >= end) return { kind: 'dead' };
  // The last retry is at the window's end: the attempts span the whole window, never less.
  const asked =
    'status' in answer && (answer.status === 429 || answer.status === 503)
      ? retryAfterMs(answer.retryAfter, at)
      : undefined;
  const delay = Math.max(retryDelay(schedule, delivery.attempts, random), Math.min(asked ?? 0, schedule.capMs));
  return { kind: 'retry', at: new Date(Math.min(end, at.getTime() + delay)) };
}
