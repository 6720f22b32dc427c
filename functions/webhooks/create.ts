import { DataAnswer } from '#shared/http/answers';
import { NewWebhook, WebhookWithSecret } from '#shared/http/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { createWebhookFor } from '#shared/use-cases/webhooks/subscriptions';

/** 201 with the signing secret, shown this once; a url whose host is not public is a 400 naming `url`. */
export const handler = route('POST /webhooks', { body: NewWebhook, status: 201 }, async ({ body, caller }) => ({
  ...dataOnly(await createWebhookFor(caller, body)),
  status: 201,
}));

export const answer = () => DataAnswer(WebhookWithSecret);
