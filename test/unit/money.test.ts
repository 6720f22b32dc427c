import { describe, expect, it } from 'vitest';
import {
  addAmounts,
  chargeableUnit,
  chargeLimitProblem,
  chargeLimits,
  currencyDecimals,
  currencyExponent,
  fitsCurrency,
  fromStripeAmount,
  proportionOf,
  splitAmount,
  toMajor,
  toMinor,
  toStripeAmount,
} from '#shared/money';

describe('money (shared/money.ts)', () => {
  it('scales by the ISO 4217 exponent: JPY 0, EUR 2, KWD 3, any case', () => {
    expect(['JPY', 'EUR', 'KWD', 'jpy', 'XYZ'].map(currencyExponent)).toEqual([0, 2, 3, 0, 2]);
    expect(toMinor(1000, 'JPY')).toBe(1000);
    expect(toMinor(12.5, 'EUR')).toBe(1250);
    expect(toMinor(0.1 + 0.2, 'EUR')).toBe(30);
    expect(toMinor(1.5, 'KWD')).toBe(1500);
    expect([toMajor(1000, 'JPY'), toMajor(1250, 'EUR'), toMajor(1500, 'KWD')]).toEqual([1000, 12.5, 1.5]);
  });

  it('takes amounts with as many decimals as the currency can be charged in', () => {
    expect([fitsCurrency(1000, 'JPY'), fitsCurrency(1000.5, 'JPY')]).toEqual([true, false]);
    expect([fitsCurrency(12.34, 'EUR'), fitsCurrency(12.345, 'EUR')]).toEqual([true, false]);
    // KWD has fils (3 decimals), but Stripe charges only whole tens of them.
    expect([fitsCurrency(1.25, 'KWD'), fitsCurrency(1.255, 'KWD')]).toEqual([true, false]);
    // MGA has 2 decimals in ISO 4217; Stripe charges whole ariary.
    expect([fitsCurrency(100, 'MGA'), fitsCurrency(100.5, 'MGA')]).toEqual([true, false]);
    expect([fitsCurrency(Number.NaN, 'EUR'), fitsCurrency(Number.POSITIVE_INFINITY, 'EUR')]).toEqual([false, false]);
    expect(['JPY', 'EUR', 'KWD', 'MGA', 'ISK', 'IQD'].map(currencyDecimals)).toEqual([0, 2, 2, 0, 0, 2]);
  });

  it("converts to and from Stripe's unit, with its special cases", () => {
    expect(toStripeAmount(1000, 'JPY')).toBe(1000);
    expect(toStripeAmount(1250, 'EUR')).toBe(1250);
    expect(toStripeAmount(1500, 'KWD')).toBe(1500);
    // ISK and UGX: whole units written with two decimals ("to charge 5 ISK, provide 500").
    expect([toStripeAmount(5, 'ISK'), toStripeAmount(5, 'UGX')]).toEqual([500, 500]);
    // HUF and TWD are two-decimal for charges (whole units only for payouts).
    expect([toStripeAmount(17_550, 'HUF'), toStripeAmount(1050, 'TWD')]).toEqual([17_550, 1050]);
    // MGA: ISO two decimals, Stripe zero.
    expect(toStripeAmount(10_000, 'MGA')).toBe(100);
    for (const [minor, currency] of [
      [1000, 'JPY'],
      [1250, 'EUR'],
      [1500, 'KWD'],
      [5, 'ISK'],
      [5, 'UGX'],
      [10_000, 'MGA'],
    ] as const)
      expect(fromStripeAmount(toStripeAmount(minor, currency), currency)).toBe(minor);
  });

  it('refuses to send Stripe an amount it cannot charge', () => {
    expect(() => toStripeAmount(1505, 'KWD')).toThrow(RangeError);
    expect(() => toStripeAmount(10_050, 'MGA')).toThrow(RangeError);
    expect(() => toStripeAmount(12.5, 'EUR')).toThrow(RangeError);
  });

  it("knows Stripe's minimum and maximum per currency, in minor units", () => {
    expect(chargeLimits('EUR')).toEqual({ minimum: 50, maximum: 99_999_999 });
    expect(chargeLimits('GBP').minimum).toBe(30);
    expect(chargeLimits('JPY')).toEqual({ minimum: 50, maximum: 99_999_999 });
    expect(chargeLimits('HUF').minimum).toBe(17_500);
    // Unlisted: 50 in Stripe's unit; the maximum 8 digits of Stripe's unit, each a chargeable amount.
    expect(chargeLimits('KWD')).toEqual({ minimum: 50, maximum: 99_999_990 });
    expect(chargeLimits('ISK')).toEqual({ minimum: 1, maximum: 999_999 });
    expect(chargeLimits('IDR').maximum).toBe(999_999_999_999);
    expect(chargeLimitProblem(0, 'EUR')).toBeNull();
    expect(chargeLimitProblem(49, 'EUR')).toBe('amount_below_minimum');
    expect(chargeLimitProblem(50, 'EUR')).toBeNull();
    expect(chargeLimitProblem(100_000_000, 'EUR')).toBe('amount_above_maximum');
  });

  it('adds amounts in minor units, with or without the currency at hand', () => {
    expect(addAmounts([0.1, 0.2], 'EUR')).toBe(0.3);
    expect(addAmounts([19.99, 0.3, 0.5])).toBe(20.79);
    expect(addAmounts([1.25, 0.125], 'KWD')).toBe(1.375);
    expect(addAmounts([1000, 500], 'JPY')).toBe(1500);
    expect(addAmounts([], 'EUR')).toBe(0);
  });

  it('splits an amount into chargeable shares that add up exactly (largest remainder)', () => {
    expect(splitAmount(1000, [1, 1, 1], 'EUR')).toEqual([334, 333, 333]);
    expect(splitAmount(100, [1, 1, 1], 'JPY')).toEqual([34, 33, 33]);
    expect(splitAmount(1000, [1, 1, 1], 'KWD')).toEqual([340, 330, 330]);
    expect(splitAmount(1000, [2500, 7500], 'EUR')).toEqual([250, 750]);
    expect(splitAmount(1001, [1, 2], 'EUR')).toEqual([334, 667]);
    expect(splitAmount(0, [1, 1], 'EUR')).toEqual([0, 0]);
    expect(splitAmount(500, [0, 1], 'EUR')).toEqual([0, 500]);
    for (let total = 0; total < 300; total += 7) {
      const shares = splitAmount(total, [3, 5, 11, 1], 'EUR');
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total);
    }
    expect(() => splitAmount(1005, [1, 1], 'KWD')).toThrow(RangeError);
    expect(() => splitAmount(100, [0, 0], 'EUR')).toThrow(RangeError);
    expect(() => splitAmount(100, [1.5, 1], 'EUR')).toThrow(RangeError);
  });

  it('takes a proportion of an amount rounded half away from zero, to a chargeable amount', () => {
    // 8.875 % of USD 100.00 is 887.5 cents: a tie, which goes up (half-even would keep 888 too; 2.5 tells them apart).
    expect(proportionOf(10_000, 8875, 100_000, 'USD')).toBe(888);
    expect(proportionOf(50, 5000, 100_000, 'USD')).toBe(3);
    expect(proportionOf(-50, 5000, 100_000, 'USD')).toBe(-3);
    expect(proportionOf(49, 5000, 100_000, 'USD')).toBe(2);
    expect(proportionOf(0, 21_000, 121_000, 'EUR')).toBe(0);
    expect(Object.is(proportionOf(-1, 1, 100, 'EUR'), 0)).toBe(true);
    // Included tax: 12100 × 21 / 121 is exactly 2100, in BigInt however large the amount.
    expect(proportionOf(12_100, 21_000, 121_000, 'EUR')).toBe(2100);
    expect(proportionOf(9_007_199_254_740_000, 3, 7, 'EUR')).toBe(3_860_228_252_031_429);
  });

  it('rounds to what Stripe can charge: tens of fils in KWD, whole ariary in MGA', () => {
    expect(['EUR', 'JPY', 'KWD', 'MGA'].map(chargeableUnit)).toEqual([1, 1, 10, 100]);
    expect(proportionOf(1250, 5000, 100_000, 'KWD')).toBe(60);
    expect(proportionOf(1250, 6000, 100_000, 'KWD')).toBe(80);
    expect(proportionOf(10_000, 150, 10_000, 'MGA')).toBe(200);
    expect(() => proportionOf(100, 1, 0, 'EUR')).toThrow(RangeError);
    expect(() => proportionOf(1.5, 1, 2, 'EUR')).toThrow(RangeError);
    expect(() => proportionOf(100, -1, 2, 'EUR')).toThrow(RangeError);
  });
});
