import type { AdminPrincipal } from '../../auth/tokens.ts';
import { listDeliveries, type StoredDelivery } from '../data/webhooks.ts';
import { type DeliveryResource, isPing, toDeliveryResource } from '../domain/webhooks.ts';
import { ticketInScope } from '../../identity/use-cases/event-scope.ts';
import { visibleWebhook } from './subscriptions.ts';

/**
 * Whether the caller may see (and send again) a delivery of a subscription they manage: a ping, a ticket message
 * of a ticket their events reach as a read does, or an event change's of one of their events ('granted', identity/use-cases/event-scope.ts). A subscription narrowed since
 * keeps its older deliveries of other events: to a caller scoped elsewhere those look missing, in the
 * list, to `…/retry` (404) and to the redelivery (neither counted nor queued).
 */
export function deliveryReadableBy(
  caller: Pick<AdminPrincipal, 'eventScope'>,
  delivery: Pick<StoredDelivery, 'type' | 'eventIds'>,
): boolean {
  if (isPing(delivery)) return true;
  const [eventId, ...accessEvents] = delivery.eventIds;
  return eventId !== undefined && ticketInScope(caller.eventScope, { eventId, accessEvents }, 'granted');
}

/**
 * `GET /webhooks/{id}/deliveries`: newest first, walked by `next` (the last delivery id read). A page reads
 * `limit + 1` deliveries at most and shows those the caller may read, so it may hold fewer than `limit`, even none,
 * while `next` goes on.
 */
export async function listDeliveriesFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  page: { limit: number; cursor?: string },
): Promise<{ items: DeliveryResource[]; next: string | null }> {
  await visibleWebhook(caller, webhookId);
  const { items, next } = await listDeliveries(webhookId, { limit: page.limit, after: page.cursor });
  return { items: items.filter((delivery) => deliveryReadableBy(caller, delivery)).map(toDeliveryResource), next };
}
