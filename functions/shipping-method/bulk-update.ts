import * as z from '#shared/schema';
import { bulkUpdate } from '#shared/selling/use-cases/shipping-methods';
import { bulkBody } from '#shared/http/bulk';
import { bulk, ResultFormat } from '#shared/http/envelopes';
import { BulkAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /shipping-method/bulk-update',
  {
    query: z.strictObject({ result: ResultFormat }),
    body: bulkBody(z.unknown()),
  },
  async ({ query, body }) => bulk(query.result, await bulkUpdate(body.data)),
);

export const answer = () => BulkAnswer(z.optional(ShippingMethodResource));
