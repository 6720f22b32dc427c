import { now } from '../../clock.ts';
import { subscriptionDueDeliveries } from '../data/webhook-due.ts';
import type { StoredDelivery } from '../data/webhooks.ts';
import { logger } from '../../logger.ts';
import { dueDeliveries, listWebhooks, oldestPendingDelivery } from '../data/webhooks.ts';
import { recordOldestPendingAge } from '../../services/metrics.ts';
import { AttemptContext } from './attempt-context.ts';
import { attemptDelivery } from './deliveries.ts';
import { inTurns } from '../../in-turns.ts';

/** A lane's read: at most PER_WEBHOOK of a subscription's oldest due (or ROUND of the orphans'), attempted 2 at once. */
const ROUND = 25;
const PER_WEBHOOK = 5;
const ATTEMPTS_AT_ONCE = 2;

/**
 * A round's share: the due deliveries (oldest due first) taken in turn across subscriptions (the
 * one whose oldest waited longest first, each one's oldest first), at most `perWebhook` of each,
 * `size` in all. The dispatcher's lanes share out by subscription themselves; kept for what orders
 * a mixed list fairly (the orphans' lane).
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
 * The dispatcher's run (every minute deployed, on a timer locally): the due retries until none is due or
 * `budgetMs` has passed, then the age of the oldest undelivered message, for its alarm. Each subscription
 * has a lane of its own: it reads its own oldest due (its GSI3 partition, PER_WEBHOOK at
 * most, one Query), attempts them ATTEMPTS_AT_ONCE at a time, and reads again, never waiting for another
 * subscription's receiver; so a hanging receiver holds its own lane and nobody else's, and one receiver's
 * backlog, however large, hides no other's retries (at most 50 subscriptions: 100 attempts at once). One
 * more lane takes the oldest due of all (GSI1) whose subscription is not listed: deleted since (cancelled at
 * their attempt) or made since the run began. The budget is wall time (tests move the clock by days).
 * A lane that could attempt none of what it read (the index lags the claims it just made) ends.
 */
export async function dispatchDueDeliveries(
  budgetMs: number,
): Promise<{ attempted: number; oldestPendingAgeSeconds: number }> {
  const context = new AttemptContext();
  const end = performance.now() + budgetMs;
  // Once a run: a subscription made meanwhile has its first attempts made by the stream's consumer.
  const webhookIds = (await listWebhooks()).map((webhook) => webhook.id);
  const listed = new Set(webhookIds);
  const lanes = await Promise.all([
    ...webhookIds.map((id) => lane(() => subscriptionDueDeliveries(id, now(), PER_WEBHOOK), PER_WEBHOOK, context, end)),
    lane(
      async () => {
        const oldest = await dueDeliveries(now(), ROUND);
        return {
          due: fairShare(
            oldest.filter((d) => !listed.has(d.webhookId)),
            PER_WEBHOOK,
            ROUND,
          ),
          read: oldest.length,
        };
      },
      ROUND,
      context,
      end,
    ),
  ]);
  const attempted = lanes.reduce((sum, n) => sum + n, 0);
  const oldest = await oldestPendingDelivery();
  const oldestPendingAgeSeconds = oldest
    ? Math.max(0, Math.round((now().getTime() - Date.parse(oldest.created)) / 1000))
    : 0;
  recordOldestPendingAge(oldestPendingAgeSeconds);
  return { attempted, oldestPendingAgeSeconds };
}

/**
 * One lane's work: read what is due, attempt it, again while the last read was full and the run has time.
 * `read` answers the deliveries to attempt, or those and how many it read (the orphans' lane filters).
 */
async function lane(
  read: () => Promise<StoredDelivery[] | { due: StoredDelivery[]; read: number }>,
  full: number,
  context: AttemptContext,
  end: number,
): Promise<number> {
  let attempted = 0;
  while (performance.now() < end) {
    const got = await read();
    const { due, read: count } = Array.isArray(got) ? { due: got, read: got.length } : got;
    const done = due.length ? await attemptAll(due, context, end) : 0;
    attempted += done;
    if (!done || count < full) break;
  }
  return attempted;
}

/**
 * Attempts recorded deliveries ATTEMPTS_AT_ONCE at a time (one lane's read); a failure to attempt
 * leaves the delivery pending for the next run. None starts after `startBy` (performance.now()):
 * the deadline is checked before each attempt, so every attempt started ends (answer and record)
 * within the function's time, whose margin covers one attempt (functions/jobs/dispatch.ts); those not
 * started stay due, unclaimed, for the next run. The number attempted.
 */
async function attemptAll(
  deliveries: readonly StoredDelivery[],
  context: AttemptContext,
  startBy: number,
): Promise<number> {
  const outcomes = await inTurns(deliveries, ATTEMPTS_AT_ONCE, async (delivery) => {
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
