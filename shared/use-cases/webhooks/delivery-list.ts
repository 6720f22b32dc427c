import type { AdminPrincipal } from '../../auth/tokens.ts';
import { listDeliveries } from '../../data/webhooks.ts';
import { type DeliveryResource, toDeliveryResource } from '../../domain/webhooks.ts';
import { visibleWebhook } from './subscriptions.ts';

/** `GET /webhooks/{id}/deliveries`: newest first, walked by `next` (the last delivery id of the page). */
export async function listDeliveriesFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  page: { limit: number; cursor?: string },
): Promise<{ items: DeliveryResource[]; next: string | null }> {
  await visibleWebhook(caller, webhookId);
  const { items, next } = await listDeliveries(webhookId, { limit: page.limit, after: page.cursor });
  return { items: items.map(toDeliveryResource), next };
}
