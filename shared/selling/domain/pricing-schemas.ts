import { hasDecimals } from '../../money.ts';
import * as z from '../../schema.ts';
import { amountProblem, money } from '../../domain/money.ts';

/**
 * A tax and a booking fee as the API takes them (a ticket type's `tax`, an event's `bookingFee`, `feeTax` and
 * `shippingTax`: event-fields.ts); shared/selling/domain/pricing.ts prices with what they let through.
 */

/** The most decimals a percentage (a tax rate, a fee's percent) may have: 8.875 % is a US sales tax rate. */
export const PERCENT_DECIMALS = 3;
export const TAX_NAME_MAX_LENGTH = 40;

/** A percentage from 0 to 100 with at most 3 decimals. */
export const percentage = () =>
  z.number().check(
    z.minimum(0, 'must not be negative'),
    z.maximum(100, 'must be at most 100'),
    z.refine((value) => hasDecimals(value, PERCENT_DECIMALS), `must have at most ${PERCENT_DECIMALS} decimal places`),
  );

/**
 * A tax: its name as an invoice prints it (`VAT`, `Sales tax`), its rate in percent, and whether prices include it
 * (EU consumer prices) or it is added to them (US sales tax).
 */
export const TaxRule = z.lazy(() =>
  z.strictObject({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'must not be empty'),
        z.maxLength(TAX_NAME_MAX_LENGTH, `must be at most ${TAX_NAME_MAX_LENGTH} characters`),
      ),
    rate: percentage(),
    inclusive: z.boolean(),
  }),
);
export type TaxRule = z.output<typeof TaxRule>;

/**
 * A booking fee the buyer pays: an amount per ticket, a percent of the tickets' price, or both. An empty one is
 * refused (no fee is no `bookingFee`), so a typo'd field name cannot silently mean "free".
 */
export const BookingFee = z.lazy(() =>
  z
    .strictObject({ perTicket: z.optional(money()), percent: z.optional(percentage()) })
    .check(
      z.refine((fee) => fee.perTicket !== undefined || fee.percent !== undefined, 'give perTicket, percent or both'),
    ),
);
export type BookingFee = z.output<typeof BookingFee>;

/**
 * Why a booking fee does not fit its event's currency (`perTicket` 1.5 for a JPY event), as fields' problems, none
 * when it does: the schema knows no currency, so the use case checks this against the event's (as prices are).
 */
export function bookingFeeProblems(
  fee: BookingFee,
  currency: string,
  path = 'bookingFee',
): { path: string; message: string }[] {
  const message = fee.perTicket === undefined ? undefined : amountProblem(fee.perTicket, currency);
  return message ? [{ path: `${path}.perTicket`, message }] : [];
}

/**
 * Who sells, as an invoice prints it: a name, a postal address and a tax id (a VAT number), as given. The stage's
 * (the stage file's `seller`, INVOICE_SELLER), or an event's own (its `seller`, an organiser selling on a shared stage).
 */
export const SellerFields = z.lazy(() =>
  z.strictObject({
    name: z
      .string()
      .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
    address: z.string().check(z.trim(), z.maxLength(400, 'must be at most 400 characters')),
    taxId: z.string().check(z.trim(), z.maxLength(40, 'must be at most 40 characters')),
  }),
);
export type Seller = z.output<typeof SellerFields>;
