import { requireSection } from '../../config.ts';
import * as z from '../../schema.ts';
import { MAX_INVOICE_SERIES } from '../domain/invoice.ts';
import { type Seller, SellerFields } from '../domain/pricing-schemas.ts';

const Settings = z.lazy(() =>
  z.object({
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
  }),
);

/**
 * The seller every invoice of the stage names (the stage file's `seller`, INVOICE_SELLER as JSON), checked when read:
 * the paid orders' numbering and the cancels' credit notes read it.
 */
export function stageSeller(): Seller {
  return SellerFields.parse(requireSection('the invoice seller', Settings).INVOICE_SELLER);
}

const Series = z.lazy(() =>
  z.object({
    INVOICE_SERIES: z.pipe(z.pipe(z.string(), z.transform(Number)), z.int().check(z.gte(1), z.lte(MAX_INVOICE_SERIES))),
  }),
);

/**
 * How many series each seller's numbers of a year run in (the stage file's `invoiceSeries`, INVOICE_SERIES): sized so
 * that no series' counter is written by more numbering transactions a second than one item takes.
 */
export function invoiceSeries(): number {
  return requireSection('the invoice series', Series).INVOICE_SERIES;
}
