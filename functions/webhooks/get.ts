import { DataAnswer } from '#shared/http/answers';
import { WebhookResource } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { getWebhookFor } from '#shared/webhooks/use-cases/subscriptions';

export const handler = route('GET /webhooks/{id}', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await getWebhookFor(caller, path.id)),
);

export const answer = () => DataAnswer(WebhookResource);
