import * as z from '#shared/schema';
import { createShippingMethod } from '#shared/selling/use-cases/shipping-methods';
import { NewShippingMethod, ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { asResult, ResultFormat } from '#shared/http/envelopes';
import { ResultAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /shipping-method',
  {
    query: z.strictObject({ result: ResultFormat }),
    body: NewShippingMethod,
    status: 201,
  },
  async ({ query, body }) => asResult(query.result, await createShippingMethod(body), 201),
);

export const answer = () => ResultAnswer(ShippingMethodResource);
