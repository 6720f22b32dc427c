import * as z from '#shared/schema';
import { PageAnswer } from '#shared/http/answers';
import { PromoCodeResource } from '#shared/selling/contract/promo-codes';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { listPromoCodesFor } from '#shared/selling/use-cases/promo-codes';

/** The event's codes in the order of their text, each with its `uses`. */
export const handler = route(
  'GET /events/{id}/promo-codes',
  { path: PathId, query: z.strictObject(pagingQuery) },
  async ({ path, query, caller }) =>
    paged(await listPromoCodesFor(caller, path.id, { limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(PromoCodeResource);
