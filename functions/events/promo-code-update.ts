import { SingleAnswer } from '#shared/http/answers';
import { PathEventPromoCode, PromoCodePatchBody, PromoCodeResource } from '#shared/selling/contract/promo-codes';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { updatePromoCodeFor } from '#shared/selling/use-cases/promo-codes';

/** The code as changed; holds read it afresh, so a change applies to the next hold. */
export const handler = route(
  'PATCH /events/{id}/promo-codes/{codeId}',
  { path: PathEventPromoCode, body: PromoCodePatchBody },
  async ({ path, body, caller }) => single(await updatePromoCodeFor(caller, path.id, path.codeId, body)),
);

export const answer = () => SingleAnswer(PromoCodeResource);
