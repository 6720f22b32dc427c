import { randomBytes } from 'node:crypto';
import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { getDelivery, type StoredDelivery, updateDelivery } from '../data/webhooks.ts';
import { pingMessage } from '../domain/webhook-messages.ts';
import { type DeliveryResource, toDeliveryResource } from '../domain/webhooks.ts';
import { NotFound } from '../../errors.ts';
import { attemptDelivery, firstAttempt, newDelivery } from './deliveries.ts';
import { inProgress, REQUEST_ATTEMPT, resendRefusal, resent } from './attempt-claims.ts';
import { deliveryTime } from '../domain/delivery-times.ts';
import { AttemptContext } from './attempt-context.ts';
import { deliveryReadableBy } from './delivery-list.ts';
import { visibleWebhook } from './subscriptions.ts';

/**
 * The routes that send a recorded delivery again: `POST /webhooks/{id}/deliveries/{deliveryId}/retry`
 * (one, now) and `POST …/deliveries/redeliver` (a time range, for the dispatcher: redelivery.ts), both
 * through `resendRefusal` and `resent` (attempt-claims.ts); and `POST /webhooks/{id}/ping`.
 */

/**
 * Sends a delivery again now, whatever its state (a receiver that lost a delivered message
 * may ask for it), with a fresh retry window; answers it after that attempt, which waits for the
 * receiver REQUEST_ATTEMPT's 3 s at most (then recorded timed out, pending, its claim released).
 */
export async function retryDeliveryFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  deliveryId: string,
): Promise<DeliveryResource> {
  const webhook = await visibleWebhook(caller, webhookId);
  const delivery = await getDelivery(webhookId, deliveryId);
  // Another event's ticket looks missing, as in the list.
  if (!delivery || !deliveryReadableBy(caller, delivery)) throw new NotFound('Delivery', deliveryId);
  const at = now();
  const refusal = resendRefusal(delivery, webhook, at);
  if (refusal) throw refusal;
  const requeued = resent(delivery, at, { claim: true });
  if (!(await updateDelivery(requeued, delivery.attempts))) throw inProgress(deliveryId);
  const attempted = await attemptDelivery(requeued, new AttemptContext(), REQUEST_ATTEMPT);
  if (!attempted) throw inProgress(deliveryId);
  return toDeliveryResource(attempted);
}

/**
 * A new delivery of type `webhook.ping` to the subscription, attempted at once (enabled or not) for REQUEST_ATTEMPT's
 * 3 s at most, and recorded with its outcome (past the limit: pending, timed out, for the dispatcher).
 */
export async function pingWebhookFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
): Promise<DeliveryResource> {
  const webhook = await visibleWebhook(caller, webhookId);
  const at = now();
  const id = `${deliveryTime(at.getTime())}-ping-${randomBytes(4).toString('hex')}`;
  const delivery: StoredDelivery = {
    ...newDelivery(webhook, id, at.toISOString()),
    type: 'webhook.ping',
    ticketId: null,
    eventIds: [],
    body: JSON.stringify(pingMessage(webhookId, at.toISOString())),
  };
  return toDeliveryResource((await firstAttempt(delivery, { timeoutMs: REQUEST_ATTEMPT.timeoutMs })) ?? delivery);
}
