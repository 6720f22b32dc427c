import * as z from '#shared/schema';
import { deleteShippingMethod } from '#shared/selling/use-cases/shipping-methods';
import { PathId } from '#shared/http/path-params';
import { asResult, ResultFormat } from '#shared/http/envelopes';
import { ResultAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

export const handler = route(
  'DELETE /shipping-method/{id}',
  { path: PathId, query: z.strictObject({ result: ResultFormat }) },
  async ({ path, query }) => asResult(query.result, await deleteShippingMethod(path.id)),
);

export const answer = () => ResultAnswer(ShippingMethodResource);
