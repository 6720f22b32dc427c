import * as z from '#shared/schema';
import { PageAnswer } from '#shared/http/answers';
import { WebhookResource } from '#shared/webhooks/contract/webhooks';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { route } from '#shared/http/route';
import { listWebhooksFor } from '#shared/webhooks/use-cases/subscriptions';

export const handler = route('GET /webhooks', { query: z.strictObject(pagingQuery) }, async ({ query, caller }) =>
  paged(await listWebhooksFor(caller, { limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(WebhookResource);
