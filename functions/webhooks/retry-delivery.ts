import { DataAnswer } from '#shared/http/answers';
import { DeliveryResource, PathDelivery } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { retryDeliveryFor } from '#shared/webhooks/use-cases/delivery-routes';

/** Sends the delivery again now, whatever its state, and answers it after that attempt. */
export const handler = route(
  'POST /webhooks/{id}/deliveries/{deliveryId}/retry',
  { path: PathDelivery },
  async ({ path, caller }) => dataOnly(await retryDeliveryFor(caller, path.id, path.deliveryId)),
);

export const answer = () => DataAnswer(DeliveryResource);
