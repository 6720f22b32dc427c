import type { StoredDelivery } from '../data/webhooks.ts';
import { DISABLED_GONE } from '../domain/webhooks.ts';
import type { AttemptVerdict } from '../domain/webhook-retries.ts';

/** A delivery as recorded after an attempt (deliveries.ts), by the receiver's answer and the schedule's verdict on it. */
export function afterAttempt(
  claimed: StoredDelivery,
  answer: { status: number } | { error: string },
  verdict: AttemptVerdict,
): StoredDelivery {
  const lastStatus = 'status' in answer ? answer.status : null;
  const failure = 'error' in answer ? answer.error : `the receiver answered ${answer.status}`;
  switch (verdict.kind) {
    case 'delivered':
      return { ...claimed, status: 'delivered', lastStatus, lastError: null, nextAttemptAt: null };
    case 'gone':
      return {
        ...claimed,
        status: 'dead',
        lastStatus,
        lastError: `${DISABLED_GONE}: the webhook is disabled`,
        nextAttemptAt: null,
      };
    case 'dead':
      return {
        ...claimed,
        status: 'dead',
        lastStatus,
        lastError: `${failure}; given up after ${claimed.attempts} attempts`,
        nextAttemptAt: null,
      };
    case 'retry':
      return { ...claimed, status: 'pending', lastStatus, lastError: failure, nextAttemptAt: verdict.at.toISOString() };
  }
}
