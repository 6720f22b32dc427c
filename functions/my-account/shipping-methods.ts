import * as z from '#shared/schema';
import { PageAnswer } from '#shared/http/answers';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { route } from '#shared/http/route';
import { ShippingOptionResource } from '#shared/portal/contract/portal-checkout';
import { listPortalShippingMethods } from '#shared/portal/use-cases/catalogue';

export const handler = route(
  'GET /my-account/shipping-method',
  { query: z.strictObject(pagingQuery) },
  async ({ query }) => paged(await listPortalShippingMethods({ limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(ShippingOptionResource);
