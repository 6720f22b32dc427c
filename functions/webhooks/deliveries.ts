import { DeliveriesAnswer, DeliveriesQuery, DeliveryResource } from '#shared/webhooks/contract/webhooks';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { listDeliveriesFor } from '#shared/webhooks/use-cases/delivery-list';

export const handler = route(
  'GET /webhooks/{id}/deliveries',
  { path: PathId, query: DeliveriesQuery },
  async ({ path, query, caller }) => {
    const page = await listDeliveriesFor(caller, path.id, { limit: query._limit, cursor: query._cursor });
    return { body: { count: page.items.length, limit: query._limit, next: page.next, data: page.items } };
  },
);

export const answer = () => DeliveriesAnswer(DeliveryResource);
