import { requireSection } from '../../config.ts';
import * as z from '../../schema.ts';
import type { Seller } from '../domain/invoice.ts';

/** What the stage file's `seller` may hold: a name, a postal address and a tax id an invoice prints as given. */
export const SellerSettings = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  address: z.string().check(z.trim(), z.maxLength(400)),
  taxId: z.string().check(z.trim(), z.maxLength(40)),
});

const Settings = z.object({
  INVOICE_SELLER: z.pipe(
    z.string(),
    z.transform((value, context) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.issues.push({ code: 'custom', message: 'must be JSON: {name, address, taxId}', input: value });
        return z.NEVER;
      }
    }),
  ),
});

/**
 * The seller every invoice of the stage names (the stage file's `seller`, INVOICE_SELLER as JSON), checked when read:
 * the paid orders' numbering and the cancels' credit notes read it.
 */
export function stageSeller(): Seller {
  return SellerSettings.parse(requireSection('the invoice seller', Settings).INVOICE_SELLER);
}
