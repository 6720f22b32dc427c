import * as z from '../../schema.ts';
import { instant } from '../../events/domain/event-fields.ts';
import { money } from '../../domain/money.ts';
import { percentage } from './pricing-schemas.ts';

/**
 * What the promo-code routes take and answer (contract/promo-codes.ts re-exports them), and the types the use cases
 * take, inferred from them. The rules a code follows: promo-code.ts.
 */

export const MAX_PROMO_USES = 1_000_000;
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/;

const code = () =>
  z
    .string()
    .check(
      z.trim(),
      z.maxLength(32, 'must be at most 32 characters'),
      z.regex(CODE_PATTERN, 'must be 3 to 32 letters, digits, - or _, starting with a letter or digit'),
    );
const maxUses = () =>
  z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(MAX_PROMO_USES, `must be at most ${MAX_PROMO_USES}`));
const typeIds = () =>
  z
    .array(z.int().check(z.positive()))
    .check(z.minLength(1, 'name at least one type, or leave typeIds out'), z.maxLength(50, 'must be at most 50'));
const percentOff = () =>
  percentage().check(z.refine((value) => value > 0, 'must be more than 0: a code of 0 % is no discount'));
const amountOff = () => money().check(z.refine((value) => value > 0, 'must be more than 0'));

const oneDiscount = z.refine<{ percentOff?: number | null; amountOff?: number | null }>(
  (body) => body.percentOff == null || body.amountOff == null,
  'give percentOff or amountOff, not both',
);
const validOrder = z.refine<{ validFrom?: string | null; validUntil?: string | null }>(
  (body) => !(body.validFrom && body.validUntil && body.validUntil <= body.validFrom),
  { message: 'must be after validFrom', path: ['validUntil'] },
);

export const NewPromoCodeBody = z.lazy(() =>
  z
    .strictObject({
      code: code(),
      percentOff: z.optional(percentOff()),
      amountOff: z.optional(amountOff()),
      typeIds: z.optional(typeIds()),
      maxUses: z.optional(maxUses()),
      validFrom: z.optional(instant()),
      validUntil: z.optional(instant()),
    })
    .check(
      oneDiscount,
      z.refine((body) => body.percentOff !== undefined || body.amountOff !== undefined, 'give percentOff or amountOff'),
      validOrder,
    ),
);
export type NewPromoCodeBody = z.output<typeof NewPromoCodeBody>;

/** A change: any field but the code (another code is another code); null clears a limit, the types or a bound. */
export const PromoCodePatchBody = z.lazy(() =>
  z
    .strictObject({
      percentOff: z.optional(percentOff()),
      amountOff: z.optional(amountOff()),
      typeIds: z.optional(z.nullable(typeIds())),
      maxUses: z.optional(z.nullable(maxUses())),
      validFrom: z.optional(z.nullable(instant())),
      validUntil: z.optional(z.nullable(instant())),
    })
    .check(
      z.refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change'),
      oneDiscount,
      validOrder,
    ),
);
export type PromoCodePatchBody = z.output<typeof PromoCodePatchBody>;

export const PromoCodeResource = z.lazy(() =>
  z
    .strictObject({
      id: z.int(),
      eventId: z.int(),
      code: z.string(),
      percentOff: z.nullable(z.number()),
      amountOff: z.nullable(z.number().check(z.describe("In the event's currency, major units."))),
      typeIds: z.nullable(z.array(z.int())),
      maxUses: z.nullable(z.int()),
      validFrom: z.nullable(z.string()),
      validUntil: z.nullable(z.string()),
      uses: z.int().check(z.describe('Holds holding it now plus paid orders: exact as soon as a hold has answered.')),
      created: z.string(),
      updated: z.string(),
    })
    .check(z.describe('A discount code of one event, matched case-insensitively.')),
);
export type PromoCodeResource = z.output<typeof PromoCodeResource>;
