import * as z from '../schema.ts';
import type { UpgradeOption } from './upgrade.ts';

/** `GET /my-account/upgrades/{ticketId}`: the types of the ticket's event priced above its own, cheapest first. */
export const UpgradeOptionResource = z.strictObject({
  ticketId: z.int(),
  fromTypeId: z.int(),
  targetTypeId: z.int(),
  name: z.string(),
  description: z.string(),
  priceDifference: z.number(),
  currency: z.nullable(z.string()).check(z.describe("The payment processor's currency; null when none is configured.")),
  available: z.boolean().check(z.describe('The target type has room.')),
});

true satisfies z.Same<z.output<typeof UpgradeOptionResource>, UpgradeOption>;
