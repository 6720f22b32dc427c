import { invalidRequest } from './errors.ts';

/**
 * Stripe's own rules for an `amount` in a currency (https://docs.stripe.com/currencies: its unit, its special cases,
 * its minimum and maximum charge), as the stand-in of the other party. Written here on purpose rather than imported
 * from shared/money.ts: the stand-in plays Stripe, so a mistake in the service's conversion (a ¥1,000 ticket sent as
 * 100000) must meet Stripe's rules as Stripe states them, not the service's own reading of them.
 */

/** Zero-decimal: `amount` is whole units. */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf vnd vuv xaf xof xpf'.split(' '));
/** Three-decimal: the last digit must be 0. */
const THREE_DECIMAL = new Set('bhd jod kwd omr tnd'.split(' '));
/** Whole units written with two decimals: `amount` evenly divisible by 100 ("Special cases"). */
const WHOLE_UNITS = new Set(['isk', 'ugx']);

/** "Minimum charge amount by currency", in major units. */
const MINIMUMS: Record<string, number> = {
  usd: 0.5,
  aed: 2,
  ars: 0.5,
  aud: 0.5,
  brl: 0.5,
  cad: 0.5,
  chf: 0.5,
  cop: 0.5,
  czk: 15,
  dkk: 2.5,
  eur: 0.5,
  gbp: 0.3,
  hkd: 4,
  huf: 175,
  idr: 0.5,
  ils: 0.5,
  inr: 0.5,
  jpy: 50,
  krw: 50,
  mxn: 10,
  myr: 2,
  nok: 3,
  nzd: 0.5,
  php: 0.5,
  pln: 2,
  ron: 2,
  rub: 0.5,
  sek: 3,
  sgd: 0.5,
  thb: 10,
  zar: 0.5,
};

/** The digits `amount` may have (any payment method): 12 for IDR, 10 for COP, 9 for INR, else 8. */
const DIGITS: Record<string, number> = { idr: 12, cop: 10, inr: 9 };

const decimalsOf = (currency: string) => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);

/** An amount as Stripe's messages write it: `¥50`-like, here `50 jpy`, `0.50 eur`. */
const written = (amount: number, currency: string) =>
  `${(amount / 10 ** decimalsOf(currency)).toFixed(decimalsOf(currency))} ${currency}`;

/**
 * Refuses a charge `amount` Stripe would: below the currency's minimum (`amount_too_small`; a currency the table does
 * not list: below 50 of its unit, which Stripe checks after conversion into the settlement currency), above its
 * digits (`amount_too_large`), or not a multiple of its step (`invalid_charge_amount`: a three-decimal amount whose
 * last digit is not 0, an ISK or UGX amount not divisible by 100).
 */
export function checkChargeAmount(amount: number, currency: string): void {
  const least = currency in MINIMUMS ? Math.round(MINIMUMS[currency]! * 10 ** decimalsOf(currency)) : 50;
  if (amount < least)
    throw invalidRequest(`Amount must be at least ${written(least, currency)}`, {
      code: 'amount_too_small',
      param: 'amount',
    });
  const most = 10 ** (DIGITS[currency] ?? 8) - 1;
  if (amount > most)
    throw invalidRequest(`Amount must be no more than ${written(most, currency)}`, {
      code: 'amount_too_large',
      param: 'amount',
    });
  const step = THREE_DECIMAL.has(currency) ? 10 : WHOLE_UNITS.has(currency) ? 100 : 1;
  if (amount % step !== 0)
    throw invalidRequest(
      `Invalid amount: ${currency.toUpperCase()} amounts must be evenly divisible by ${step} (https://docs.stripe.com/currencies#special-cases).`,
      { code: 'invalid_charge_amount', param: 'amount' },
    );
}
