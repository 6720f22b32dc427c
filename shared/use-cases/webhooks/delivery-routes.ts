import { randomBytes } from 'node:crypto';
import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { getDelivery, type StoredDelivery, updateDelivery } from '../../data/webhooks.ts';
import { pingMessage } from '../../domain/webhook-messages.ts';
import { aimedAsRecorded, type DeliveryResource, toDeliveryResource } from '../../domain/webhooks.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { attemptDelivery, claimedUntil, deliveryTime, firstAttempt, heldByAttempt, newDelivery } from './deliveries.ts';
import { visibleWebhook } from './subscriptions.ts';

/** The routes that send a delivery now: `POST /webhooks/{id}/deliveries/{deliveryId}/retry` and `POST /webhooks/{id}/ping`. */
/**
 * Sends a delivery again now, whatever its state (a receiver that lost a delivered message
 * may ask for it), with a fresh retry window; answers it after that attempt.
 */
export async function retryDeliveryFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  deliveryId: string,
): Promise<DeliveryResource> {
  const webhook = await visibleWebhook(caller, webhookId);
  const delivery = await getDelivery(webhookId, deliveryId);
  if (!delivery) throw new NotFound('Delivery', deliveryId);
  // A stored message goes only to the url, and for the administrator, it was recorded for.
  if (!aimedAsRecorded(delivery, webhook))
    throw new Conflict(
      `Delivery ${deliveryId} was recorded for another url or administrator than webhook ${webhookId} has now: it is not sent to them (messages recorded since the change are).`,
      'webhook_reaimed',
    );
  const at = now().toISOString();
  const busy = () =>
    new Conflict(`Delivery ${deliveryId} is being attempted now: read it again.`, 'attempt_in_progress');
  // The dispatcher (or another retry) holds it: sending it now would send it twice at once, and lose one answer.
  if (heldByAttempt(delivery, new Date(at))) throw busy();
  // Held for this request's attempt: the dispatcher does not take it meanwhile.
  const requeued: StoredDelivery = {
    ...delivery,
    status: 'pending',
    nextAttemptAt: claimedUntil(new Date(at)),
    claimedUntil: claimedUntil(new Date(at)),
    windowStart: at,
    lastError: null,
  };
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
  return toDeliveryResource((await firstAttempt(delivery)) ?? delivery);
}
