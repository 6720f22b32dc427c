import { getShippingMethod } from '#shared/selling/use-cases/shipping-methods';
import { PathId } from '#shared/http/path-params';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

export const handler = route('GET /shipping-method/{id}', { path: PathId }, async ({ path }) =>
  single(await getShippingMethod(path.id)),
);

export const answer = () => SingleAnswer(ShippingMethodResource);
