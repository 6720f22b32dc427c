import { now } from '../../clock.ts';
import {
  DUE_SHARDS,
  dueEntries,
  dueMinute,
  forgetDue,
  recordSweptMinute,
  sweptMinute,
} from '../data/reservation-due.ts';
import { releaseHold } from '../data/reservations.ts';
import { cancelCheckoutPayment } from './checkout-intent.ts';

/** Due entries one Query reads; a full page means the minute is read again next time round. */
const DUE_PAGE = 100;
/** Minutes one run sweeps at most (after an outage, the next runs catch up the rest in order). */
const MAX_MINUTES_PER_RUN = 120;
/** Where the very first run starts: a minute's reservations lapse within at most the longest reservation. */
const FIRST_RUN_LOOKBACK_MINUTES = 60;

const MINUTE_MS = 60_000;

const nextMinute = (minute: string) => dueMinute(new Date(Date.parse(`${minute}:00Z`) + MINUTE_MS));

export interface LapseRun {
  lapsed: number;
  minutes: number;
}

/**
 * The lapsing job (functions/jobs/release-reservations.ts, every minute; `npm start` on a
 * timer): from the minute after the last one it drained whole to the current one, each
 * minute's due shards by bounded Query up to now, each due reservation lapsed by
 * `releaseHold` (conditional on its state and its own `expiresAt`: a payment that came
 * first, or a checkout that moved `expiresAt` on, keeps it; a checked-out one's unpaid order
 * `expired` with it, its PaymentIntent cancelled at Stripe after; an entry naming no reservation, a refused
 * hold's, deleted). A minute is recorded drained
 * only once it has passed and every shard answered less than a page, so a run that stops
 * part-way, or an outage, never skips a reservation. No Scan.
 */
export async function lapseDueReservations(budgetMs: number): Promise<LapseRun> {
  const started = Date.now();
  const at = now();
  const current = dueMinute(at);
  const stored = await sweptMinute();
  // A checkpoint past now (a clock set back: the tests' clock) counts as none.
  const swept = stored && stored < current ? stored : undefined;
  let minute = swept ? nextMinute(swept) : dueMinute(new Date(at.getTime() - FIRST_RUN_LOOKBACK_MINUTES * MINUTE_MS));
  const run: LapseRun = { lapsed: 0, minutes: 0 };
  let drainedSoFar = true;
  while (minute <= current && run.minutes < MAX_MINUTES_PER_RUN && Date.now() - started < budgetMs) {
    let full = false;
    for (let shard = 0; shard < DUE_SHARDS; shard++) {
      const entries = await dueEntries(minute, shard, at, DUE_PAGE);
      for (const { reservationId, key } of entries) {
        const after = await releaseHold(reservationId, 'lapsed', at);
        if (!after) await forgetDue(key);
        if (after?.status !== 'lapsed') continue;
        run.lapsed++;
        await cancelCheckoutPayment(after);
      }
      full ||= entries.length === DUE_PAGE;
    }
    run.minutes++;
    drainedSoFar &&= !full && minute < current;
    if (drainedSoFar) await recordSweptMinute(minute);
    minute = nextMinute(minute);
  }
  return run;
}
