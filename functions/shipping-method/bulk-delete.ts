import * as z from '#shared/schema';
import { bulkDelete } from '#shared/selling/use-cases/shipping-methods';
import { positiveId } from '#shared/domain/ids';
import { bulkBody } from '#shared/http/bulk';
import { bulk, ResultFormat } from '#shared/http/envelopes';
import { BulkAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /shipping-method/bulk-delete',
  {
    query: z.strictObject({ result: ResultFormat }),
    body: bulkBody(positiveId),
  },
  async ({ query, body }) => bulk(query.result, await bulkDelete(body.data)),
);

export const answer = () => BulkAnswer(z.optional(ShippingMethodResource));
