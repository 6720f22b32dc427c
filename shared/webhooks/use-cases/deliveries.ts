import { now } from '../../clock.ts';
import { putDelivery, type StoredDelivery, updateDelivery } from '../data/webhooks.ts';
import type { Administrator } from '../../identity/domain/administrator.ts';
import { AttemptContext } from './attempt-context.ts';
import { afterAttempt } from './attempt-outcome.ts';
import { actingFor, aimedAsRecorded, isPing, REAIMED, messageIdOf, type Webhook } from '../domain/webhooks.ts';
import { type AttemptVerdict, judgeAttempt } from '../domain/webhook-retries.ts';
import { logger } from '../../logger.ts';
import { recordDeadDelivery } from '../../services/metrics.ts';
import { sendWebhook } from '../services/webhook-sender.ts';
import { openSigningSecrets, type OpenedSecrets } from '../services/webhook-secret-box.ts';
import { signatureHeaders } from '../services/webhook-signing.ts';
import { receiverPolicy, retrySchedule } from '../services/webhook-settings.ts';
import { BACKGROUND_ATTEMPT, claimedUntil } from './attempt-claims.ts';
import { ticketInScope } from '../../identity/use-cases/event-scope.ts';
import { aimLost } from './webhook-aim.ts';
import { disableAimLost, keepHealth } from './webhook-health.ts';

/**
 * Attempts of webhook deliveries: the first one (the stream handler's and the ping route's), the
 * dispatcher's retries and the retry route's (the routes: delivery-routes.ts). One attempt: check that the delivery may still be
 * sent (its subscription exists and is on, its creator may still read the ticket), send it
 * signed, record the answer, and act on the subscription's health. A recorded delivery is
 * claimed before it is sent again, so two attempts never send it at once.
 */

/** Why a ticket's or an event's message may not be sent now, by its administrator's events at this moment; undefined when it may. */
function ticketRefusal(administrator: Administrator, delivery: StoredDelivery): string | undefined {
  const [eventId, ...accessEvents] = delivery.eventIds;
  if (!ticketInScope(administrator.eventScope, { eventId: eventId!, accessEvents }, 'granted'))
    return `the ${delivery.ticketId === null ? 'event' : 'ticket'} is outside its administrator's events`;
  return undefined;
}

/**
 * Why a delivery to an existing subscription is not to be sent; undefined when it is. A
 * subscription whose administrator lost the right is turned off here (webhook-health.ts).
 */
async function cancellation(
  delivery: StoredDelivery,
  webhook: Webhook,
  context: AttemptContext,
): Promise<string | undefined> {
  // A stored message goes only where, and for whom, it was recorded: never to a re-aimed subscription.
  if (!aimedAsRecorded(delivery, webhook)) return REAIMED;
  if (isPing(delivery)) return undefined; // a ping goes out whatever the subscription's state
  if (!webhook.enabled) return 'the webhook is disabled';
  const administrator = await context.administrator(actingFor(webhook));
  const lost = aimLost(administrator, webhook);
  if (lost === undefined) return ticketRefusal(administrator!, delivery);
  await disableAimLost(webhook, lost, context);
  return `the webhook is disabled: ${lost}`;
}

/** The subscription of a delivery, or why the delivery may not be sent now. */
async function sendable(
  delivery: StoredDelivery,
  context: AttemptContext,
): Promise<{ webhook: Webhook } | { refused: string }> {
  const webhook = await context.webhook(delivery.webhookId);
  if (!webhook) return { refused: 'the webhook was deleted' };
  const refused = await cancellation(delivery, webhook, context);
  return refused === undefined ? { webhook } : { refused };
}

const cancelledFor = (delivery: StoredDelivery, reason: string): StoredDelivery => ({
  ...delivery,
  status: 'cancelled',
  lastError: reason,
  nextAttemptAt: null,
});

/**
 * A new delivery's first attempt, made before the delivery is recorded; then recorded once, with
 * the outcome: delivered, pending with its retry time, dead, or cancelled without an attempt. One
 * write where recording first, claiming and recording the answer take three (and the due indexes'
 * entries): no other attempt can take a delivery nobody has recorded, so it needs no claim. Were
 * the record lost (the process ends between the send and the write), the stream reads the change
 * again and it is sent again, with the same webhook-id: at least once. Not started after `startBy`
 * (performance.now()), it is recorded due now, for the dispatcher; its send waits `timeoutMs` at most,
 * and never past `endBy` (the stream batch's window). Answers what was recorded, or
 * undefined when the delivery was recorded meanwhile (the same change handled twice at once).
 */
export async function firstAttempt(
  delivery: StoredDelivery,
  {
    context = new AttemptContext(),
    startBy = Number.POSITIVE_INFINITY,
    timeoutMs = BACKGROUND_ATTEMPT.timeoutMs,
    endBy = Number.POSITIVE_INFINITY,
  }: { context?: AttemptContext; startBy?: number; timeoutMs?: number; endBy?: number } = {},
): Promise<StoredDelivery | undefined> {
  if (performance.now() >= startBy || delivery.status === 'skipped')
    return (await putDelivery(delivery)) ? delivery : undefined;
  const may = await sendable(delivery, context);
  if ('refused' in may) {
    const cancelled = cancelledFor(delivery, may.refused);
    return (await putDelivery(cancelled)) ? cancelled : undefined;
  }
  // Its receiver is failing: recorded due, for the dispatcher's capped, shared rounds, so a dead or hanging receiver
  // does not hold up the stream's batch (and every other subscription's first attempts) for its whole time limit.
  if (may.webhook.failingSince !== null && !isPing(delivery))
    return (await putDelivery(delivery)) ? delivery : undefined;
  const at = now();
  const secrets = await openSigningSecrets(may.webhook, at);
  const attempted: StoredDelivery = { ...delivery, attempts: 1, lastAttemptAt: at.toISOString() };
  // Within the stream batch's window (`endBy`, ticket-changes.ts): what is left of it when the send starts.
  const limit = Math.max(1, Math.min(timeoutMs, Math.floor(endBy - performance.now())));
  const { recorded, verdict } = await send(may.webhook, attempted, at, secrets, limit);
  if (!(await putDelivery(recorded))) return undefined;
  await afterRecorded(may.webhook, recorded, verdict, context);
  return recorded;
}

/**
 * One more attempt of a recorded delivery (the dispatcher's, the retry route's with REQUEST_ATTEMPT).
 * Answers the delivery as recorded after it, unclaimed, or undefined when another attempt holds it
 * (the dispatcher and a manual retry raced; one of them sends).
 */
export async function attemptDelivery(
  delivery: StoredDelivery,
  context = new AttemptContext(),
  limits = BACKGROUND_ATTEMPT,
): Promise<StoredDelivery | undefined> {
  const may = await sendable(delivery, context);
  if ('refused' in may) {
    const { claimedUntil: _released, ...unclaimed } = delivery;
    const cancelled = cancelledFor(unclaimed, may.refused);
    return (await updateDelivery(cancelled, delivery.attempts)) ? cancelled : undefined;
  }
  const at = now();
  // Opened before the claim: a Secrets Manager outage throws here, with nothing claimed or sent.
  const secrets = await openSigningSecrets(may.webhook, at);
  const claimed: StoredDelivery = {
    ...delivery,
    attempts: delivery.attempts + 1,
    lastAttemptAt: at.toISOString(),
    nextAttemptAt: claimedUntil(at, limits.holdMs),
    claimedUntil: claimedUntil(at, limits.holdMs),
  };
  if (!(await updateDelivery(claimed, delivery.attempts))) return undefined;
  const { recorded, verdict } = await send(may.webhook, claimed, at, secrets, limits.timeoutMs);
  if (!(await updateDelivery(recorded, claimed.attempts))) return undefined;
  await afterRecorded(may.webhook, recorded, verdict, context);
  return recorded;
}

/**
 * Sends the delivery signed, waiting `timeoutMs` at most, and judges the answer: the delivery as it is to be recorded
 * (unclaimed; past the limit, pending with "no answer within"), and the verdict.
 */
async function send(
  webhook: Webhook,
  attempt: StoredDelivery,
  at: Date,
  secrets: OpenedSecrets,
  timeoutMs: number,
): Promise<{ recorded: StoredDelivery; verdict: AttemptVerdict }> {
  // A secret that does not open (plain text, a short tag, copied from another subscription, its key removed) sends
  // nothing: the attempt fails, saying why, and so does the log (an error: someone must rotate it); neither holds the
  // value (webhook-secret-box.ts).
  if ('unreadable' in secrets)
    logger.error('webhook signing secret refused: nothing sent', {
      webhookId: webhook.id,
      deliveryId: attempt.id,
      why: secrets.unreadable,
    });
  const outcome =
    'unreadable' in secrets
      ? ({ kind: 'failed', detail: secrets.unreadable } as const)
      : await sendWebhook(
          {
            url: webhook.url,
            headers: {
              'content-type': 'application/json',
              ...signatureHeaders(attempt.messageId, at, attempt.body, secrets.clear),
            },
            body: attempt.body,
          },
          receiverPolicy,
          { timeoutMs },
        );
  const answer =
    outcome.kind === 'answered'
      ? { status: outcome.status, ...(outcome.retryAfter !== undefined ? { retryAfter: outcome.retryAfter } : {}) }
      : { error: outcome.detail };
  const verdict = judgeAttempt(
    answer,
    { created: attempt.windowStart, attempts: attempt.attempts },
    retrySchedule,
    now(),
    Math.random(),
  );
  const { claimedUntil: _released, ...unclaimed } = attempt;
  return { recorded: afterAttempt(unclaimed, answer, verdict), verdict };
}

async function afterRecorded(
  webhook: Webhook,
  recorded: StoredDelivery,
  verdict: AttemptVerdict,
  context: AttemptContext,
): Promise<void> {
  if (recorded.status === 'dead') recordDeadDelivery();
  await keepHealth(webhook, verdict, context);
}

/**
 * A new delivery's bookkeeping: pending, due now (so recorded only when its first attempt could
 * not start), for the subscription's url and administrator as they are now.
 */
export const newDelivery = (
  webhook: Pick<Webhook, 'id' | 'url' | 'actsFor' | 'createdBy'>,
  id: string,
  at: string,
): Omit<StoredDelivery, 'type' | 'ticketId' | 'eventIds' | 'body'> => ({
  webhookId: webhook.id,
  id,
  messageId: messageIdOf(webhook.id, id),
  url: webhook.url,
  actsFor: actingFor(webhook),
  status: 'pending',
  attempts: 0,
  lastStatus: null,
  lastError: null,
  created: at,
  windowStart: at,
  lastAttemptAt: null,
  nextAttemptAt: at,
});

/** A change's new delivery to a subscription: as `newDelivery`, or, the subscription disabled, recorded `skipped` and never attempted (`…/retry` sends it once it is on again). */
export const changeDelivery = (webhook: Webhook, id: string, at: string) => ({
  ...newDelivery(webhook, id, at),
  ...(webhook.enabled
    ? {}
    : { status: 'skipped' as const, nextAttemptAt: null, lastError: 'the webhook was disabled' }),
});
