import { DataAnswer } from '#shared/http/answers';
import { CreatedWebhook, NewWebhook } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { createWebhookFor } from '#shared/webhooks/use-cases/subscriptions';

/**
 * 201 with the signing secret, shown this once; a url whose host is not public is a 400 naming
 * `url`. The idempotency store keeps the answer without the secret: a replay answers the
 * subscription without it (README "Webhooks"), so no stored answer reveals a secret.
 */
export const handler = route('POST /webhooks', { body: NewWebhook, status: 201 }, async ({ body, caller }) => {
  const created = await createWebhookFor(caller, body);
  const { secret: _shownOnce, ...kept } = created;
  return { ...dataOnly(created), status: 201, replayBody: dataOnly(kept).body };
});

export const answer = () => DataAnswer(CreatedWebhook);
