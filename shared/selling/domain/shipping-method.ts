import * as z from '../../schema.ts';
import { addAmounts, fitsCurrency, multiplyAmount } from '../../money.ts';
import { money } from '../../domain/money.ts';

/**
 * A shipping method: how an order's tickets reach the buyer and what it costs.
 * The spec leaves chargeType's values open; we define them:
 * - `per_order`: `charge` once per order;
 * - `per_ticket`: `charge` for the first ticket, `twoPlusCharge` for each further one.
 */
export const CHARGE_TYPES = ['per_order', 'per_ticket'] as const;

/**
 * What a method charges for an order of `tickets` tickets, by the rule above (nothing for none), in the event's
 * currency (a method is stage-wide, its charges plain amounts: `unpayableCharge` refuses one the currency cannot take).
 */
export function shippingCharge(
  method: { charge: number; twoPlusCharge: number; chargeType: (typeof CHARGE_TYPES)[number] },
  tickets: number,
  currency: string,
): number {
  if (tickets === 0) return 0;
  if (method.chargeType === 'per_order') return method.charge;
  return addAmounts([method.charge, multiplyAmount(method.twoPlusCharge, tickets - 1, currency)], currency);
}

/**
 * The first charge a method would apply to `tickets` tickets that has more decimals than the event's currency takes
 * (9.5 for a JPY event), if any: shipping methods are stage-wide and carry no currency, so a hold in that currency is
 * refused rather than rounded.
 */
export function unpayableCharge(
  method: { charge: number; twoPlusCharge: number; chargeType: (typeof CHARGE_TYPES)[number] },
  tickets: number,
  currency: string,
): number | undefined {
  const applied =
    method.chargeType === 'per_ticket' && tickets > 1 ? [method.charge, method.twoPlusCharge] : [method.charge];
  return tickets === 0 ? undefined : applied.find((charge) => !fitsCurrency(charge, currency));
}

const fields = {
  name: () =>
    z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  description: () => z.string().check(z.maxLength(2000, 'must be at most 2000 characters')),
  charge: money,
  twoPlusCharge: money,
  chargeType: () => z.enum(CHARGE_TYPES),
  hasETickets: () => z.boolean(),
  requiresShippingInfo: () => z.boolean(),
  allowInternational: () => z.boolean(),
  hasBadges: () => z.boolean(),
};

/**
 * At most this many shipping methods exist at once (a create past it is 409 `too_many_shipping_methods`): an
 * organiser keeps a handful, and the list's name search counts its matches among all of them, so it reads them all:
 * the cap is what bounds that read (at most this many items, whatever the table holds).
 */
export const MAX_SHIPPING_METHODS = 500;

/** Create body: `name` is required, every other field has a default. Unknown fields are refused. */
export const NewShippingMethod = z.lazy(() =>
  z.strictObject({
    name: fields.name(),
    description: z._default(fields.description(), ''),
    charge: z._default(fields.charge(), 0),
    twoPlusCharge: z._default(fields.twoPlusCharge(), 0),
    chargeType: z._default(fields.chargeType(), 'per_order'),
    hasETickets: z._default(fields.hasETickets(), false),
    requiresShippingInfo: z._default(fields.requiresShippingInfo(), false),
    allowInternational: z._default(fields.allowInternational(), false),
    hasBadges: z._default(fields.hasBadges(), false),
  }),
);
export type NewShippingMethod = z.infer<typeof NewShippingMethod>;

/** Patch body: any writable fields, at least one. */
export const ShippingMethodPatch = z.lazy(() =>
  z
    .strictObject({
      name: z.optional(fields.name()),
      description: z.optional(fields.description()),
      charge: z.optional(fields.charge()),
      twoPlusCharge: z.optional(fields.twoPlusCharge()),
      chargeType: z.optional(fields.chargeType()),
      hasETickets: z.optional(fields.hasETickets()),
      requiresShippingInfo: z.optional(fields.requiresShippingInfo()),
      allowInternational: z.optional(fields.allowInternational()),
      hasBadges: z.optional(fields.hasBadges()),
    })
    .check(
      z.refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field'),
    ),
);
export type ShippingMethodPatch = z.infer<typeof ShippingMethodPatch>;

/**
 * The shipping method as the API answers it (shared/selling/data/shipping-methods.ts `fromItem`),
 * as a schema: the shipping-method routes declare their answers with it, the OpenAPI
 * document's `ShippingMethod` component is generated from it and `ShippingMethod` is inferred from it. Beside the
 * request schemas above, which the use cases parse bulk items with; nothing parses answers per request.
 */
export const ShippingMethodResource = z.strictObject({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  charge: z.number(),
  twoPlusCharge: z.number(),
  chargeType: z.enum(CHARGE_TYPES),
  hasETickets: z.boolean(),
  requiresShippingInfo: z.boolean(),
  allowInternational: z.boolean(),
  hasBadges: z.boolean(),
  /** ISO-8601 UTC. */
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});

/** A shipping method as stored and answered: the create body's fields with its id and times. */
export type ShippingMethod = z.output<typeof ShippingMethodResource>;
