import { randomBytes } from 'node:crypto';
import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { getAdministrator } from '../../data/administrators.ts';
import {
  getDelivery,
  getWebhook,
  putDelivery,
  setWebhookHealth,
  type StoredDelivery,
  updateDelivery,
} from '../../data/webhooks.ts';
import type { Administrator } from '../../domain/administrator.ts';
import { pingMessage } from '../../domain/webhook-messages.ts';
import {
  type AttemptVerdict,
  type DeliveryResource,
  disabledFailing,
  DISABLED_GONE,
  judgeAttempt,
  messageIdOf,
  signingSecrets,
  toDeliveryResource,
  type Webhook,
  windowInWords,
} from '../../domain/webhooks.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { recordDeadDelivery } from '../../services/metrics.ts';
import { sendWebhook } from '../../services/webhook-sender.ts';
import { signatureHeaders } from '../../services/webhook-signing.ts';
import { attemptTimeoutMs, receiverPolicy, retrySchedule } from '../../services/webhook-settings.ts';
import { ticketInScope } from '../event-scope.ts';
import { visibleWebhook } from './subscriptions.ts';

/**
 * Attempts of webhook deliveries: the stream handler's first one, the dispatcher's retries,
 * and the routes' retry and ping. One attempt: check that the delivery may still be sent
 * (its subscription exists and is on, its creator may still read the ticket), claim it,
 * send it signed, record the answer, and act on the subscription's health.
 */

/** How long an attempt holds its claim past its own time limit: a crashed attempt is retried after it. */
const CLAIM_MARGIN_MS = 60_000;

/**
 * The next attempt of a delivery being attempted from `at`: past the attempt's end, so the
 * dispatcher leaves it alone until then (and takes it up if the attempt never recorded its end).
 */
const claimedUntil = (at: Date) => new Date(at.getTime() + attemptTimeoutMs + CLAIM_MARGIN_MS).toISOString();

/** Subscriptions and administrators read once per batch of attempts. */
export class AttemptContext {
  private readonly webhooks = new Map<number, Promise<Webhook | undefined>>();
  private readonly administrators = new Map<number, Promise<Administrator | undefined>>();

  webhook(id: number): Promise<Webhook | undefined> {
    if (!this.webhooks.has(id)) this.webhooks.set(id, getWebhook(id));
    return this.webhooks.get(id)!;
  }

  administrator(id: number): Promise<Administrator | undefined> {
    if (!this.administrators.has(id)) this.administrators.set(id, getAdministrator(id));
    return this.administrators.get(id)!;
  }

  /** A subscription the service just changed: the next attempt of this batch reads it again. */
  forget(webhookId: number): void {
    this.webhooks.delete(webhookId);
  }
}

/** Why a ticket message may not be sent now, by its creator's permissions at this moment; undefined when it may. */
function creatorRefusal(creator: Administrator | undefined, delivery: StoredDelivery): string | undefined {
  if (!creator) return 'its creator is no longer an administrator';
  if (!creator.permissions.includes('webhooks:manage') || !creator.permissions.includes('tickets:read'))
    return 'its creator may no longer read tickets through webhooks';
  const [eventId, ...accessEvents] = delivery.eventIds;
  if (!ticketInScope(creator.eventScope, { eventId: eventId!, accessEvents }, 'granted'))
    return "the ticket is outside its creator's events";
  return undefined;
}

/** Why a delivery to an existing subscription is not to be sent; undefined when it is. */
async function cancellation(
  delivery: StoredDelivery,
  webhook: Webhook,
  context: AttemptContext,
): Promise<string | undefined> {
  if (delivery.ticketId === null) return undefined; // a ping goes out whatever the subscription's state
  if (!webhook.enabled) return 'the webhook is disabled';
  return creatorRefusal(await context.administrator(webhook.createdBy), delivery);
}

/**
 * One attempt of a pending delivery. Answers the delivery as recorded after it, or undefined
 * when another attempt holds it (the dispatcher and a manual retry raced; one of them sends).
 */
export async function attemptDelivery(
  delivery: StoredDelivery,
  context = new AttemptContext(),
): Promise<StoredDelivery | undefined> {
  const webhook = await context.webhook(delivery.webhookId);
  const refused = webhook ? await cancellation(delivery, webhook, context) : 'the webhook was deleted';
  const at = now();
  if (refused !== undefined || !webhook) {
    const cancelled: StoredDelivery = {
      ...delivery,
      status: 'cancelled',
      lastError: refused ?? null,
      nextAttemptAt: null,
    };
    return (await updateDelivery(cancelled, delivery.attempts)) ? cancelled : undefined;
  }
  const claimed: StoredDelivery = {
    ...delivery,
    attempts: delivery.attempts + 1,
    lastAttemptAt: at.toISOString(),
    nextAttemptAt: claimedUntil(at),
  };
  if (!(await updateDelivery(claimed, delivery.attempts))) return undefined;

  const outcome = await sendWebhook(
    {
      url: webhook.url,
      headers: {
        'content-type': 'application/json',
        ...signatureHeaders(delivery.messageId, at, delivery.body, signingSecrets(webhook, at)),
      },
      body: delivery.body,
    },
    receiverPolicy,
    { timeoutMs: attemptTimeoutMs },
  );
  const answer = outcome.kind === 'answered' ? { status: outcome.status } : { error: outcome.detail };
  const verdict = judgeAttempt(
    answer,
    { created: claimed.windowStart, attempts: claimed.attempts },
    retrySchedule,
    now(),
    Math.random(),
  );
  const recorded = afterAttempt(claimed, answer, verdict);
  if (!(await updateDelivery(recorded, claimed.attempts))) return undefined;
  if (recorded.status === 'dead') recordDeadDelivery();
  await keepHealth(webhook, verdict, context);
  return recorded;
}

function afterAttempt(
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

/**
 * The subscription's health after an attempt: delivered clears its failing mark; 410 Gone
 * turns it off; a failure marks when failing started, and once every attempt has failed for
 * the whole retry window it is turned off and its creator told by mail.
 */
async function keepHealth(webhook: Webhook, verdict: AttemptVerdict, context: AttemptContext): Promise<void> {
  const updated = now().toISOString();
  if (verdict.kind === 'delivered') {
    if (webhook.failingSince) await setWebhookHealth(webhook.id, { failingSince: null, updated });
  } else if (verdict.kind === 'gone') {
    await setWebhookHealth(webhook.id, { enabled: false, disabledReason: DISABLED_GONE, updated });
  } else if (!webhook.failingSince) {
    await setWebhookHealth(webhook.id, { failingSince: updated, updated });
  } else if (webhook.enabled && Date.parse(updated) - Date.parse(webhook.failingSince) >= retrySchedule.giveUpAfterMs) {
    const window = windowInWords(retrySchedule.giveUpAfterMs);
    await setWebhookHealth(webhook.id, { enabled: false, disabledReason: disabledFailing(window), updated });
    await mailCreator(webhook, context, window);
  } else return;
  context.forget(webhook.id);
}

async function mailCreator(webhook: Webhook, context: AttemptContext, window: string): Promise<void> {
  const creator = await context.administrator(webhook.createdBy);
  if (!creator) return;
  try {
    await sendEmail({
      to: creator.email,
      subject: `Webhook ${webhook.id} is disabled: its receiver failed for ${window}`,
      text: [
        `Every delivery to ${webhook.url} failed for ${window}, so webhook ${webhook.id} is now disabled.`,
        'Its undelivered messages are listed by GET /webhooks/{id}/deliveries and can be sent again with',
        'POST /webhooks/{id}/deliveries/{deliveryId}/retry once the receiver answers.',
        'Turn it back on with PATCH /webhooks/{id} {"enabled": true}.',
      ].join('\n'),
    });
  } catch (error) {
    // The subscription is off either way; the mail is a courtesy the alarms do not depend on.
    logger.warn('webhook disabled, but its creator could not be mailed', { webhookId: webhook.id, error });
  }
}

// ---- The routes ----

/**
 * Sends a delivery again now, whatever its state (a receiver that lost a delivered message
 * may ask for it), with a fresh retry window; answers it after that attempt.
 */
export async function retryDeliveryFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  deliveryId: string,
): Promise<DeliveryResource> {
  await visibleWebhook(caller, webhookId);
  const delivery = await getDelivery(webhookId, deliveryId);
  if (!delivery) throw new NotFound('Delivery', deliveryId);
  const at = now().toISOString();
  // Held for this request's attempt: the dispatcher does not take it meanwhile.
  const requeued: StoredDelivery = {
    ...delivery,
    status: 'pending',
    nextAttemptAt: claimedUntil(new Date(at)),
    windowStart: at,
    lastError: null,
  };
  const busy = () =>
    new Conflict(`Delivery ${deliveryId} is being attempted now: read it again.`, 'attempt_in_progress');
  if (!(await updateDelivery(requeued, delivery.attempts))) throw busy();
  const attempted = await attemptDelivery(requeued);
  if (!attempted) throw busy();
  return toDeliveryResource(attempted);
}

/** A new delivery of type `webhook.ping` to the subscription, attempted at once (enabled or not). */
export async function pingWebhookFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
): Promise<DeliveryResource> {
  await visibleWebhook(caller, webhookId);
  const at = now();
  const id = `${deliveryTime(at.getTime())}-ping-${randomBytes(4).toString('hex')}`;
  const delivery: StoredDelivery = {
    ...newDelivery(webhookId, id, at.toISOString()),
    type: 'webhook.ping',
    ticketId: null,
    eventIds: [],
    body: JSON.stringify(pingMessage(webhookId, at.toISOString())),
  };
  await putDelivery(delivery);
  const attempted = await attemptDelivery(delivery);
  return toDeliveryResource(attempted ?? delivery);
}

/** The time part of a delivery id: epoch milliseconds, 13 digits, so ids sort by creation. */
export const deliveryTime = (epochMs: number): string => String(epochMs).padStart(13, '0');

/** A new delivery's bookkeeping: pending, held for the first attempt its maker makes at once. */
export const newDelivery = (
  webhookId: number,
  id: string,
  at: string,
): Omit<StoredDelivery, 'type' | 'ticketId' | 'eventIds' | 'body'> => ({
  webhookId,
  id,
  messageId: messageIdOf(webhookId, id),
  status: 'pending',
  attempts: 0,
  lastStatus: null,
  lastError: null,
  created: at,
  windowStart: at,
  lastAttemptAt: null,
  nextAttemptAt: claimedUntil(new Date(at)),
});
