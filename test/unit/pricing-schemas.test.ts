import { describe, expect, it } from 'vitest';
import { BookingFee, bookingFeeProblems, TaxRule } from '#shared/selling/domain/pricing-schemas';

/** The fields a refused value is refused for (`(root)` for the object as a whole). */
const refused = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.path.join('.') || '(root)');

describe('a tax as the API takes it', () => {
  it('takes a name, a rate with up to 3 decimals and whether prices include it', () => {
    expect(TaxRule.parse({ name: ' Sales tax ', rate: 8.875, inclusive: false })).toEqual({
      name: 'Sales tax',
      rate: 8.875,
      inclusive: false,
    });
    expect(TaxRule.parse({ name: 'VAT', rate: 0, inclusive: true }).rate).toBe(0);
    expect(TaxRule.parse({ name: 'x'.repeat(40), rate: 100, inclusive: true }).rate).toBe(100);
  });

  it.each([
    ['a rate with 4 decimals', { rate: 8.8755 }, ['rate']],
    ['a negative rate', { rate: -1 }, ['rate']],
    ['a rate above 100', { rate: 100.001 }, ['rate']],
    ['a rate as a string', { rate: '21' }, ['rate']],
    ['an empty name', { name: '   ' }, ['name']],
    ['a name of 41 characters', { name: 'x'.repeat(41) }, ['name']],
    ['no inclusive', { inclusive: undefined }, ['inclusive']],
    ['an unknown field', { amount: 21 }, ['(root)']],
  ])('refuses %s', (_, change, fields) => {
    expect(refused(TaxRule.safeParse({ name: 'VAT', rate: 21, inclusive: true, ...change }))).toEqual(fields);
  });
});

describe('a booking fee as the API takes it', () => {
  it('takes an amount per ticket, a percent, or both', () => {
    expect(BookingFee.parse({ perTicket: 1.5 })).toEqual({ perTicket: 1.5 });
    expect(BookingFee.parse({ percent: 2.375 })).toEqual({ percent: 2.375 });
    expect(BookingFee.parse({ perTicket: 0, percent: 0 })).toEqual({ perTicket: 0, percent: 0 });
  });

  it.each([
    ['an empty fee', {}, ['(root)']],
    ['a negative perTicket', { perTicket: -0.01 }, ['perTicket']],
    ['a perTicket with 3 decimals', { perTicket: 1.005 }, ['perTicket']],
    ['a perTicket above the most an amount may be', { perTicket: 1_000_001 }, ['perTicket']],
    ['a percent above 100', { percent: 101 }, ['percent']],
    ['a percent with 4 decimals', { percent: 2.0001 }, ['percent']],
    ['an unknown field', { percent: 2, absorbed: true }, ['(root)']],
  ])('refuses %s', (_, fee, fields) => {
    expect(refused(BookingFee.safeParse(fee))).toEqual(fields);
  });

  it("names a perTicket its event's currency cannot take", () => {
    expect(bookingFeeProblems({ perTicket: 1.5 }, 'JPY')).toEqual([
      { path: 'bookingFee.perTicket', message: 'must be a whole number of JPY (no decimal places)' },
    ]);
    expect(bookingFeeProblems({ perTicket: 1.255 }, 'KWD', 'body.bookingFee')).toEqual([
      { path: 'body.bookingFee.perTicket', message: 'must have at most 2 decimal places in KWD' },
    ]);
    expect(bookingFeeProblems({ perTicket: 150, percent: 2.5 }, 'JPY')).toEqual([]);
    expect(bookingFeeProblems({ percent: 2.5 }, 'JPY')).toEqual([]);
  });
});
