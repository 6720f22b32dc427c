import { now } from '../../clock.ts';
import type { StoredDelivery } from '../../data/webhooks.ts';
import { logger } from '../../logger.ts';
import { dueDeliveries, oldestPendingDelivery } from '../../data/webhooks.ts';
import { recordOldestPendingAge } from '../../services/metrics.ts';
import { AttemptContext, attemptDelivery, inTurns } from './deliveries.ts';

/** Due deliveries attempted per round (a few at a time), at most PER_WEBHOOK of one subscription, from the READ oldest due. */
const ROUND = 25;
const PER_WEBHOOK = 5;
const READ = 100;

/**
 * A round's share: the due deliveries taken in turn across subscriptions (each one's oldest
 * first), at most `perWebhook` of each, `size` in all; so one receiver's backlog does not
 * take every slot of a round while others' retries wait.
 */
export function fairShare<T extends { webhookId: number }>(due: readonly T[], perWebhook: number, size: number): T[] {
  const queues = new Map<number, T[]>();
  for (const delivery of due) {
    const queue = queues.get(delivery.webhookId) ?? [];
    if (queue.length < perWebhook) queue.push(delivery);
    queues.set(delivery.webhookId, queue);
  }
  const share: T[] = [];
  for (let turn = 0; turn < perWebhook && share.length < size; turn++)
    for (const queue of queues.values()) if (queue[turn] && share.length < size) share.push(queue[turn]!);
  return share;
}

/**
 * The dispatcher's run (every minute deployed, on a timer locally): the due retries, round by
 * round, until none is due or `budgetMs` has passed; then the age of the oldest
 * undelivered message, for its alarm. The budget is wall time (tests move the clock by days). A round that could attempt none of what it read (the
 * index lags the claims it just made) ends the run rather than reading them again.
 */
export async function dispatchDueDeliveries(
  budgetMs: number,
): Promise<{ attempted: number; oldestPendingAgeSeconds: number }> {
  const context = new AttemptContext();
  let attempted = 0;
  const end = performance.now() + budgetMs;
  while (performance.now() < end) {
    const due = await dueDeliveries(now(), READ);
    if (!due.length) break;
    const round = await attemptAll(fairShare(due, PER_WEBHOOK, ROUND), context, end);
    attempted += round;
    if (!round || due.length < ROUND) break;
  }
  const oldest = await oldestPendingDelivery();
  const oldestPendingAgeSeconds = oldest
    ? Math.max(0, Math.round((now().getTime() - Date.parse(oldest.created)) / 1000))
    : 0;
  recordOldestPendingAge(oldestPendingAgeSeconds);
  return { attempted, oldestPendingAgeSeconds };
}

/**
 * Attempts recorded deliveries a few at a time (the dispatcher's rounds); a failure to attempt
 * leaves the delivery pending for the next run. None starts after `startBy` (performance.now()):
 * the deadline is checked before each attempt, not once per round, so every attempt started
 * ends (answer and record) within the function's time, whose margin covers one attempt
 * (bin/webhooks/dispatch.ts); those not started stay due, unclaimed, for the next run. The
 * number attempted.
 */
async function attemptAll(
  deliveries: readonly StoredDelivery[],
  context: AttemptContext,
  startBy: number,
): Promise<number> {
  const outcomes = await inTurns(deliveries, RETRIES_AT_ONCE, async (delivery) => {
    if (performance.now() >= startBy) return false;
    try {
      return (await attemptDelivery(delivery, context)) !== undefined;
    } catch (error) {
      logger.error('webhook attempt failed before an answer: the dispatcher retries it', {
        webhookId: delivery.webhookId,
        deliveryId: delivery.id,
        error,
      });
      return false;
    }
  });
  return outcomes.filter(Boolean).length;
}

/** Retries attempted at once (each waits for its receiver, 10 s at most). */
const RETRIES_AT_ONCE = 10;
