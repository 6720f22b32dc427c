import { DataAnswer } from '#shared/http/answers';
import { WebhookPatch, WebhookResource } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { updateWebhookFor } from '#shared/webhooks/use-cases/subscriptions';

/** `enabled: true` turns a subscription back on and clears why the service turned it off. */
export const handler = route(
  'PATCH /webhooks/{id}',
  { path: PathId, body: WebhookPatch },
  async ({ path, body, caller }) => dataOnly(await updateWebhookFor(caller, path.id, body)),
);

export const answer = () => DataAnswer(WebhookResource);
