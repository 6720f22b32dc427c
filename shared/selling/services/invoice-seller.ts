import { requireSection } from '../../config.ts';
import * as z from '../../schema.ts';
import { type Seller, SellerFields } from '../domain/pricing-schemas.ts';

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
  return SellerFields.parse(requireSection('the invoice seller', Settings).INVOICE_SELLER);
}
