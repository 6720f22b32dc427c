import * as z from '../schema.ts';
import { CHARGE_TYPES, type ShippingMethod } from './shipping-method.ts';

/**
 * The shipping method as the API answers it (shared/data/shipping-methods.ts `fromItem`),
 * as a schema: the shipping-method routes declare their answers with it, and the OpenAPI
 * document's `ShippingMethod` component is generated from it. A sibling of
 * shipping-method.ts, like ticket-resource.ts; nothing parses answers per request.
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

true satisfies z.Same<z.output<typeof ShippingMethodResource>, ShippingMethod>;
true satisfies z.Same<keyof z.output<typeof ShippingMethodResource>, keyof ShippingMethod>;
