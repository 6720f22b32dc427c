import { now } from '../../clock.ts';
import { subscriptionDueDeliveries } from '../../data/webhook-due.ts';
import type { StoredDelivery } from '../../data/webhooks.ts';
import { logger } from '../../logger.ts';
import { dueDeliveries, listWebhooks, oldestPendingDelivery } from '../../data/webhooks.ts';
import { recordOldestPendingAge } from '../../services/metrics.ts';
import { AttemptContext } from './attempt-context.ts';
import { attemptDelivery } from './deliveries.ts';
import { inTurns } from './in-turns.ts';

/** Due deliveries attempted per round (a few at a time), at most PER_WEBHOOK of one subscription. */
const ROUND = 25;
const PER_WEBHOOK = 5;
/** Subscriptions whose due deliveries are read at once. */
const READS_AT_ONCE = 10;

/**
 * A round's share: the due deliveries (oldest due first) taken in turn across subscriptions (the
 * one whose oldest waited longest first, each one's oldest first), at most `perWebhook` of each,
 * `size` in all; so one receiver's backlog does not take every slot of a round while others'
 * retries wait, and a subscription left out of a full round comes first in the next.
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
 * What is due now, every subscription's share of it: each subscription's own oldest due (its GSI3
 * partition, at most PER_WEBHOOK, one Query each; at most MAX_WEBHOOKS subscriptions), so one
 * receiver's backlog, however large, hides no other's retries; with the ROUND oldest due of all (GSI1),
 * which adds those of subscriptions deleted since (cancelled at their attempt) and those stored
 * before the per-subscription index (until migration 8 placed them). Oldest due first, so the
 * subscriptions that waited longest come first in a round (`fairShare` takes them in that order).
 * `more`: whether any read was full, or the share left some out: another round may find work.
 */
async function dueNow(webhookIds: readonly number[], at: Date): Promise<{ share: StoredDelivery[]; more: boolean }> {
  const [own, oldest] = await Promise.all([
    inTurns(webhookIds, READS_AT_ONCE, (id) => subscriptionDueDeliveries(id, at, PER_WEBHOOK)),
    dueDeliveries(at, ROUND),
  ]);
  const due = new Map<string, StoredDelivery>();
  for (const delivery of [...own.flat(), ...oldest]) due.set(`${delivery.webhookId}/${delivery.id}`, delivery);
  const ordered = [...due.values()].sort(
    (a, b) => a.nextAttemptAt!.localeCompare(b.nextAttemptAt!) || a.webhookId - b.webhookId || a.id.localeCompare(b.id),
  );
  const share = fairShare(ordered, PER_WEBHOOK, ROUND);
  const more = share.length < ordered.length || oldest.length === ROUND || own.some((of) => of.length === PER_WEBHOOK);
  return { share, more };
}

/**
 * The dispatcher's run (every minute deployed, on a timer locally): the due retries, round by
 * round, until none is due or `budgetMs` has passed; then the age of the oldest undelivered
 * message, for its alarm. Each round reads every subscription's due deliveries (dueNow): its cost
 * grows with the number of subscriptions, never with one's backlog. The budget is wall time (tests
 * move the clock by days). A round that could attempt none of what it read (the index lags the
 * claims it just made) ends the run rather than reading them again.
 */
export async function dispatchDueDeliveries(
  budgetMs: number,
): Promise<{ attempted: number; oldestPendingAgeSeconds: number }> {
  const context = new AttemptContext();
  let attempted = 0;
  const end = performance.now() + budgetMs;
  // Once a run: a subscription made meanwhile has its first attempts made by the stream's consumer.
  const webhookIds = (await listWebhooks()).map((webhook) => webhook.id);
  while (performance.now() < end) {
    const { share, more } = await dueNow(webhookIds, now());
    if (!share.length) break;
    const round = await attemptAll(share, context, end);
    attempted += round;
    if (!round || !more) break;
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
