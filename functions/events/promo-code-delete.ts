import { PathEventPromoCode } from '#shared/selling/contract/promo-codes';
import { route } from '#shared/http/route';
import { deletePromoCodeFor } from '#shared/selling/use-cases/promo-codes';

/** 204; a code with uses taken (held, or kept by a paid order) stays (409 `promo_code_in_use`). */
export const handler = route(
  'DELETE /events/{id}/promo-codes/{codeId}',
  { path: PathEventPromoCode, status: 204 },
  async ({ path, caller }) => {
    await deletePromoCodeFor(caller, path.id, path.codeId);
    return { status: 204 };
  },
);
