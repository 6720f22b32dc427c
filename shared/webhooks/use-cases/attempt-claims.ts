import type { StoredDelivery } from '../data/webhooks.ts';
import { aimedAsRecorded, type Webhook } from '../domain/webhooks.ts';
import { heldByAttempt } from '../domain/delivery-times.ts';
import { Conflict } from '../../errors.ts';
import { attemptTimeoutMs, requestAttemptTimeoutMs, requestClaimMs } from '../services/webhook-settings.ts';

/**
 * A delivery's claims: how long an attempt holds it, and whether and how it may be sent again. Apart from the
 * attempts themselves (deliveries.ts), so that a redelivery, which only makes deliveries due for the dispatcher,
 * loads no sender and no mail.
 */

/** How long a background attempt holds its claim past its own time limit: a crashed attempt is retried after it. */
const CLAIM_MARGIN_MS = 60_000;

/** An attempt's limits: how long it waits for the receiver, and how long its claim holds the delivery. */
export interface AttemptLimits {
  timeoutMs: number;
  holdMs: number;
}

/** The dispatcher's and the stream consumer's attempts: the whole attempt limit (10 s deployed), held a minute past it. */
export const BACKGROUND_ATTEMPT: AttemptLimits = {
  timeoutMs: attemptTimeoutMs,
  holdMs: attemptTimeoutMs + CLAIM_MARGIN_MS,
};

/** An attempt inside a request (ping, retry): 3 s of the route function's 10 s, held until that function is surely gone. */
export const REQUEST_ATTEMPT: AttemptLimits = { timeoutMs: requestAttemptTimeoutMs, holdMs: requestClaimMs };

/**
 * The next attempt of a delivery being attempted from `at`: past the attempt's end, so the
 * dispatcher leaves it alone until then (and takes it up if the attempt never recorded its end).
 */
export const claimedUntil = (at: Date, holdMs = BACKGROUND_ATTEMPT.holdMs) =>
  new Date(at.getTime() + holdMs).toISOString();

/**
 * Why a recorded delivery may not be sent again now (a 409 to throw, or to count), undefined when it may. A
 * stored message goes only to the url, and for the administrator, it was recorded for; and one an attempt
 * holds (the dispatcher's, another retry's) is not sent again meanwhile: twice at once, one answer lost.
 */
export function resendRefusal(delivery: StoredDelivery, webhook: Webhook, at: Date): Conflict | undefined {
  if (!aimedAsRecorded(delivery, webhook))
    return new Conflict(
      `Delivery ${delivery.id} was recorded for another url or administrator than webhook ${webhook.id} has now: it is not sent to them (messages recorded since the change are).`,
      'webhook_reaimed',
    );
  if (heldByAttempt(delivery, at)) return inProgress(delivery.id);
  return undefined;
}

/** A 409: an attempt holds the delivery now. */
export const inProgress = (deliveryId: string) =>
  new Conflict(`Delivery ${deliveryId} is being attempted now: read it again.`, 'attempt_in_progress');

/**
 * A delivery to be sent again, with a fresh retry window: held for the caller's own attempt now
 * (`claim`, so the dispatcher does not take it meanwhile; the request's hold, REQUEST_ATTEMPT), or
 * due now, for the dispatcher.
 */
export const resent = (
  { claimedUntil: _ranOut, ...delivery }: StoredDelivery,
  at: Date,
  { claim }: { claim: boolean },
): StoredDelivery => ({
  ...delivery,
  status: 'pending',
  nextAttemptAt: claim ? claimedUntil(at, REQUEST_ATTEMPT.holdMs) : at.toISOString(),
  ...(claim ? { claimedUntil: claimedUntil(at, REQUEST_ATTEMPT.holdMs) } : {}),
  windowStart: at.toISOString(),
  lastError: null,
});
