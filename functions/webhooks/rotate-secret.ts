import { DataAnswer } from '#shared/http/answers';
import { WebhookWithSecret } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { rotateWebhookSecret } from '#shared/webhooks/use-cases/subscriptions';

/** The new secret, shown this once; the previous one also signs for 24 hours. */
export const handler = route('POST /webhooks/{id}/rotate-secret', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await rotateWebhookSecret(caller, path.id)),
);

export const answer = () => DataAnswer(WebhookWithSecret);
