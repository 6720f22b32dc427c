import { SingleAnswer } from '#shared/http/answers';
import { NewPromoCodeBody, PromoCodeResource } from '#shared/selling/contract/promo-codes';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createPromoCodeFor } from '#shared/selling/use-cases/promo-codes';

/** 201 with the code (its `uses` 0); a code the event has already, in any case, is 409 `promo_code_taken`. */
export const handler = route(
  'POST /events/{id}/promo-codes',
  { path: PathId, body: NewPromoCodeBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createPromoCodeFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(PromoCodeResource);
