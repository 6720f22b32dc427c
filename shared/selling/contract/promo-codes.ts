/**
 * The contract of an event's promo codes (`/events/{id}/promo-codes`): the bodies and the answer are the domain's
 * (shared/selling/domain/promo-code-bodies.ts), re-exported here with the paths. A buyer names a code on their hold
 * (reservations.ts `promoCode`).
 */
import * as z from '../../schema.ts';
import { wholeNumber } from '../../request-fields.ts';

export { NewPromoCodeBody, PromoCodePatchBody, PromoCodeResource } from '../domain/promo-code-bodies.ts';

/** `{id}` and `{codeId}`. */
export const PathEventPromoCode = z.lazy(() =>
  z.strictObject({
    id: wholeNumber('id', { positive: true }),
    codeId: wholeNumber('codeId', { positive: true }),
  }),
);
