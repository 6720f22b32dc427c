import * as z from '#shared/schema';
import { listShippingMethods } from '#shared/selling/use-cases/shipping-methods';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { PageAnswer } from '#shared/http/answers';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { route } from '#shared/http/route';

export const handler = route(
  'GET /shipping-method',
  {
    query: z.strictObject({ name: z.optional(z.string().check(z.maxLength(200))), ...pagingQuery }),
  },
  async ({ query }) =>
    paged(await listShippingMethods({ name: query.name, limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(ShippingMethodResource);
