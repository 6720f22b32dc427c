import { DataAnswer } from '#shared/http/answers';
import { DeliveryResource } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { pingWebhookFor } from '#shared/webhooks/use-cases/delivery-routes';

/** A `webhook.ping` message, sent at once (enabled or not): the answer is the delivery after that attempt. */
export const handler = route('POST /webhooks/{id}/ping', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await pingWebhookFor(caller, path.id)),
);

export const answer = () => DataAnswer(DeliveryResource);
