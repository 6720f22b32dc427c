import * as z from '#shared/schema';
import { updateShippingMethod } from '#shared/selling/use-cases/shipping-methods';
import { ShippingMethodPatch, ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { PathId } from '#shared/http/path-params';
import { asResult, ResultFormat } from '#shared/http/envelopes';
import { ResultAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route(
  'PATCH /shipping-method/{id}',
  {
    path: PathId,
    query: z.strictObject({ result: ResultFormat }),
    body: ShippingMethodPatch,
  },
  async ({ path, query, body }) => asResult(query.result, await updateShippingMethod(path.id, body)),
);

export const answer = () => ResultAnswer(ShippingMethodResource);
