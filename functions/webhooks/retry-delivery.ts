import { DataAnswer } from '#shared/http/answers';
import { DeliveryResource, PathDelivery } from '#shared/http/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { retryDeliveryFor } from '#shared/use-cases/webhooks/delivery-routes';

/** Sends the delivery again now, whatever its state, and answers it after that attempt. */
export const handler = route(
  'POST /webhooks/{id}/deliveries/{deliveryId}/retry',
  { path: PathDelivery },
  async ({ path, caller }) => dataOnly(await retryDeliveryFor(caller, path.id, path.deliveryId)),
);

export const answer = () => DataAnswer(DeliveryResource);
