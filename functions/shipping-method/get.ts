import { getShippingMethod } from '#shared/use-cases/shipping-methods';
import { PathId } from '#shared/http/bulk';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('GET /shipping-method/{id}', { path: PathId }, async ({ path }) =>
  single(await getShippingMethod(path.id)),
);
