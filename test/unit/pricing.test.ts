import { describe, expect, it } from 'vitest';
import { type PricingInput, priceReservation } from '#shared/selling/domain/pricing';

const vat = (rate: number, inclusive = true) => ({ name: 'VAT', rate, inclusive });
const salesTax = { name: 'Sales tax', rate: 8.875, inclusive: false };

describe("the issue's examples", () => {
  it('takes EUR 121 at 21 % included as tax 21.00 inside a total of 121.00', () => {
    const { lines, amounts } = priceReservation({
      currency: 'EUR',
      lines: [{ typeId: 1, quantity: 1, unitPrice: 121, tax: vat(21) }],
    });
    expect(lines[0]).toMatchObject({ price: 12_100, tax: 2100, amount: 12_100 });
    expect(amounts).toMatchObject({ tickets: 12_100, tax: 2100, taxAdded: 0, total: 12_100, currency: 'EUR' });
  });

  it('adds USD 100 at 8.875 % as tax 8.88, total 108.88 (887.5 cents: the half goes away from zero)', () => {
    const { lines, amounts } = priceReservation({
      currency: 'USD',
      lines: [{ typeId: 1, quantity: 1, unitPrice: 100, tax: salesTax }],
    });
    expect(lines[0]).toMatchObject({ tax: 888, amount: 10_888 });
    expect(amounts).toMatchObject({ tickets: 10_000, tax: 888, taxAdded: 888, total: 10_888 });
  });

  it('takes JPY 1,100 at 10 % included as tax 100', () => {
    const { amounts } = priceReservation({
      currency: 'JPY',
      lines: [{ typeId: 1, quantity: 1, unitPrice: 1100, tax: vat(10) }],
    });
    expect(amounts).toMatchObject({ tickets: 1100, tax: 100, total: 1100 });
  });
});

describe('a line and its tickets', () => {
  it("rounds a line's tax once and splits it over its tickets, which add up to it", () => {
    // 3 × 10.00 at 19 % included: 3000 × 19 / 119 = 478.99 → 479; each ticket's 159.66 would have made 480.
    const { lines } = priceReservation({
      currency: 'EUR',
      lines: [{ typeId: 1, quantity: 3, unitPrice: 10, tax: vat(19) }],
    });
    expect(lines[0]!.tax).toBe(479);
    expect(lines[0]!.tickets.map((ticket) => ticket.taxAmount)).toEqual([160, 160, 159]);
    expect(lines[0]!.tickets.map((ticket) => ticket.amount)).toEqual([1000, 1000, 1000]);
  });

  it('rounds KWD to the 10 fils Stripe charges, so the total can be charged as it is', () => {
    // 1.250 KWD at 5 % added: 62.5 fils, 6.25 tens → 60 fils.
    const { amounts } = priceReservation({
      currency: 'KWD',
      lines: [{ typeId: 1, quantity: 1, unitPrice: 1.25, tax: vat(5, false) }],
    });
    expect(amounts).toMatchObject({ tax: 60, total: 1310 });
  });

  it('prices untaxed lines as before: the price is the amount and the total', () => {
    const { amounts, taxRates } = priceReservation({
      currency: 'EUR',
      lines: [
        { typeId: 1, quantity: 2, unitPrice: 12.5 },
        { typeId: 2, quantity: 1, unitPrice: 0 },
      ],
      shipping: { amount: 4.5 },
    });
    expect(amounts).toEqual({
      tickets: 2500,
      discount: 0,
      fees: 0,
      shipping: 450,
      tax: 0,
      taxAdded: 0,
      total: 2950,
      currency: 'EUR',
    });
    expect(taxRates).toEqual([]);
  });
});

describe('discounts', () => {
  const twoTypes = (discount: PricingInput['discount']): PricingInput => ({
    currency: 'EUR',
    lines: [
      { typeId: 1, quantity: 2, unitPrice: 10, tax: vat(19) },
      { typeId: 2, quantity: 1, unitPrice: 5, tax: vat(7) },
    ],
    discount,
  });

  it('spreads an amountOff over the lines by their prices, adding up to exactly the discount', () => {
    const { lines, amounts } = priceReservation(twoTypes({ amountOff: 10.01 }));
    expect(lines.map((line) => line.discount)).toEqual([801, 200]);
    expect(amounts).toMatchObject({ discount: 1001, total: 2500 - 1001 });
  });

  it('takes tax on the discounted price', () => {
    const { lines } = priceReservation(twoTypes({ percentOff: 50 }));
    // 1000 × 19 / 119 = 159.66 → 160; 250 × 7 / 107 = 16.36 → 16.
    expect(lines.map((line) => [line.discount, line.amount, line.tax])).toEqual([
      [1000, 1000, 160],
      [250, 250, 16],
    ]);
  });

  it('applies only to its typeIds, and caps an amountOff at their price', () => {
    const { lines, amounts } = priceReservation(twoTypes({ amountOff: 100, typeIds: [2] }));
    expect(lines.map((line) => line.discount)).toEqual([0, 500]);
    expect(lines[1]).toMatchObject({ amount: 0, tax: 0 });
    expect(amounts).toMatchObject({ discount: 500, total: 2000 });
  });

  it('makes a line free at 100 %: no tax, no booking fee', () => {
    const { lines, amounts, taxRates } = priceReservation({
      ...twoTypes({ percentOff: 100, typeIds: [1] }),
      bookingFee: { perTicket: 1, percent: 5 },
      feeTax: vat(19),
    });
    expect(lines[0]).toMatchObject({ discount: 2000, amount: 0, tax: 0, fee: 0, feeTax: 0 });
    // The other line: 1.00 per ticket + 5 % of 5.00 = 1.25, 19 % inside it: 19.96 → 20.
    expect(lines[1]).toMatchObject({ fee: 125, feeTax: 20 });
    expect(amounts).toMatchObject({ fees: 125, total: 500 + 125 });
    // The free line lists no 0.00 at its rate: 500 × 7 / 107 = 32.71 → 33.
    expect(taxRates).toEqual([
      { name: 'VAT', rate: 7, net: 467, tax: 33, gross: 500 },
      { name: 'VAT', rate: 19, net: 105, tax: 20, gross: 125 },
    ]);
  });

  it('never spreads an amountOff over lines with nothing to discount', () => {
    const { amounts } = priceReservation({
      currency: 'EUR',
      lines: [{ typeId: 1, quantity: 1, unitPrice: 0 }],
      discount: { amountOff: 5 },
    });
    expect(amounts).toMatchObject({ discount: 0, total: 0 });
  });
});

describe('booking fees, shipping and the taxes per rate', () => {
  it('adds the fee, its tax and shipping with its tax to a US total', () => {
    const { lines, shipping, amounts, taxRates } = priceReservation({
      currency: 'USD',
      lines: [{ typeId: 1, quantity: 2, unitPrice: 50, tax: salesTax }],
      bookingFee: { perTicket: 1 },
      feeTax: salesTax,
      shipping: { amount: 5, tax: salesTax },
    });
    // Tickets 10000 → 887.5 → 888; fee 200 → 17.75 → 18; shipping 500 → 44.375 → 44.
    expect(lines[0]).toMatchObject({ fee: 200, feeTax: 18, tax: 888, amount: 10_888 });
    expect(lines[0]!.tickets).toEqual([
      { amount: 5444, taxAmount: 444, fee: 100, feeTax: 9 },
      { amount: 5444, taxAmount: 444, fee: 100, feeTax: 9 },
    ]);
    expect(shipping).toEqual({ amount: 500, tax: 44 });
    expect(amounts).toEqual({
      tickets: 10_000,
      discount: 0,
      fees: 200,
      shipping: 500,
      tax: 950,
      taxAdded: 950,
      total: 11_650,
      currency: 'USD',
    });
    expect(taxRates).toEqual([{ name: 'Sales tax', rate: 8.875, net: 10_700, tax: 950, gross: 11_650 }]);
  });

  it('lists an EU sale per rate, each the sum of its rounded lines, the fee inside the standard rate', () => {
    const { amounts, taxRates } = priceReservation({
      currency: 'EUR',
      lines: [
        { typeId: 1, quantity: 1, unitPrice: 107, tax: vat(7) },
        { typeId: 2, quantity: 1, unitPrice: 119, tax: vat(19) },
      ],
      bookingFee: { percent: 2.5 },
      feeTax: vat(19),
    });
    // Fees 2.675 → 2.68 and 2.975 → 2.98 (5.66), 19 % inside: 42.79 → 43 and 47.58 → 48.
    expect(taxRates).toEqual([
      { name: 'VAT', rate: 7, net: 10_000, tax: 700, gross: 10_700 },
      { name: 'VAT', rate: 19, net: 11_900 + 566 - 1900 - 91, tax: 1900 + 91, gross: 11_900 + 566 },
    ]);
    expect(amounts).toMatchObject({ fees: 566, tax: 2691, taxAdded: 0, total: 10_700 + 11_900 + 566 });
  });
});

describe('what it refuses (a caller bug: the API validates first)', () => {
  const line = { typeId: 1, quantity: 1, unitPrice: 10 };
  it.each([
    ['a price its currency cannot take', { currency: 'JPY', lines: [{ ...line, unitPrice: 10.5 }] }],
    ['a line without tickets', { currency: 'EUR', lines: [{ ...line, quantity: 0 }] }],
    ['a rate with 4 decimals', { currency: 'EUR', lines: [{ ...line, tax: vat(8.8755) }] }],
    ['a percentOff above 100', { currency: 'EUR', lines: [line], discount: { percentOff: 101 } }],
    ['a negative fee', { currency: 'EUR', lines: [line], bookingFee: { perTicket: -1 } }],
  ] as const)('refuses %s', (_, input) => {
    expect(() => priceReservation(input as PricingInput)).toThrow(RangeError);
  });
});
