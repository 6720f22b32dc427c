/**
 * Money, in one place. The API speaks major units (`12.5` EUR), as the spec does; every sum, share, comparison and
 * amount sent to or read from Stripe is a whole number of the currency's minor units (ISO 4217 exponent: JPY 0,
 * EUR 2, KWD 3), converted here and nowhere else.
 *
 * Our own small module, not dinero.js: amounts are stored and answered as major-unit decimals (the spec's), so a
 * library's money objects would be built and taken apart at every line; what is needed is one exponent table, a few
 * integer operations, and Stripe's own rules (its unit per currency, its special cases, its minimum and maximum
 * charges), which dinero.js does not know and would have to be written here anyway. It also adds nothing to each
 * function's bundle.
 */

/** ISO 4217 currencies whose minor unit is not the hundredth (every other code has exponent 2). */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** The currency of an event that has none (seeded before events had one): what its reservations were priced in. */
export const DEFAULT_CURRENCY = 'EUR';

/** The number of decimals of a currency's minor unit (any case). */
export const currencyExponent = (currency: string): number => EXPONENTS[currency.toUpperCase()] ?? 2;

/** A major-unit amount (as the API holds it) in whole minor units; rounds away only float noise (0.1 + 0.2). */
export const toMinor = (amount: number, currency: string): number =>
  Math.round(amount * 10 ** currencyExponent(currency));

/** Whole minor units as the API answers them, in major units. */
export const toMajor = (minor: number, currency: string): number => minor / 10 ** currencyExponent(currency);

// Stripe's unit, from https://docs.stripe.com/currencies ("Specify amounts in API requests", "Special cases").
// A currency is two-decimal for Stripe unless listed as zero- or three-decimal; the unit can differ from ISO 4217's.

/**
 * Stripe's zero-decimal currencies. Stripe lists UGX here too, then overrides it under "Special cases": UGX (like
 * ISK) is whole shillings written with two decimals (`500` charges 5 UGX), so it is two-decimal below.
 * MGA is zero-decimal for Stripe though ISO 4217 gives it 2.
 */
const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Three-decimal for Stripe, whose partners need the last digit 0: 5.124 KWD cannot be charged, 5.120 can. */
const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** Whole units written with two decimals, "where the decimal amount is always 00" (Stripe's special cases). */
const STRIPE_WHOLE_UNITS = new Set(['ISK', 'UGX']);

const stripeExponent = (code: string): number =>
  STRIPE_ZERO_DECIMAL.has(code) ? 0 : STRIPE_THREE_DECIMAL.has(code) ? 3 : 2;

/** The smallest amount Stripe charges, in its own unit: 10 of a three-decimal currency, 100 of ISK and UGX. */
const stripeStep = (code: string): number =>
  STRIPE_THREE_DECIMAL.has(code) ? 10 : STRIPE_WHOLE_UNITS.has(code) ? 100 : 1;

/**
 * The smallest amount that can be charged, in the currency's minor units: 1 for most, 10 fils for KWD (Stripe's last
 * digit 0), 100 for MGA (whole ariary for Stripe), 10 for IQD (three-decimal in ISO, two-decimal for Stripe).
 */
const payableStep = (currency: string): number => {
  const code = currency.toUpperCase();
  return Math.max(1, stripeStep(code) * 10 ** (currencyExponent(code) - stripeExponent(code)));
};

/**
 * How many decimals an amount in this currency may have: its ISO 4217 exponent, less where Stripe charges in coarser
 * steps (KWD 2, MGA 0), so that every price, charge and total the API accepts can be charged as it is.
 */
export const currencyDecimals = (currency: string): number =>
  currencyExponent(currency) - Math.round(Math.log10(payableStep(currency)));

/** The most decimals any currency's amounts may have (a request amount whose currency is not known yet). */
export const MOST_DECIMALS = 2;

/** True when a major-unit amount has no more decimals than its currency takes (JPY 1000, not 1000.5; KWD 1.5). */
export const fitsCurrency = (amount: number, currency: string): boolean => {
  if (!Number.isFinite(amount)) return false;
  const minor = toMinor(amount, currency);
  return toMajor(minor, currency) === amount && minor % payableStep(currency) === 0;
};

/** True when a major-unit amount has at most `decimals` decimals (whatever its currency). */
export const hasDecimals = (amount: number, decimals: number): boolean =>
  Number.isFinite(amount) && Math.round(amount * 10 ** decimals) / 10 ** decimals === amount;

/** Minor units as Stripe's `amount` (JPY 1000 → 1000, EUR 12.50 → 1250, KWD 1.5 → 1500, ISK 5 → 500). */
export function toStripeAmount(minor: number, currency: string): number {
  const code = currency.toUpperCase();
  if (!Number.isSafeInteger(minor) || minor % payableStep(code) !== 0)
    throw new RangeError(`${minor} minor units of ${code} cannot be charged by Stripe.`);
  const shift = stripeExponent(code) - currencyExponent(code);
  return shift >= 0 ? minor * 10 ** shift : minor / 10 ** -shift;
}

/** Stripe's `amount` (of a PaymentIntent, a charge, a refund) in the currency's minor units. */
export function fromStripeAmount(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  const shift = stripeExponent(code) - currencyExponent(code);
  return shift >= 0 ? amount / 10 ** shift : amount * 10 ** -shift;
}

/**
 * Stripe's minimum charge per currency, in major units: the table "Minimum charge amount by currency"
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). Stripe applies it to the amount converted
 * into the account's settlement currency; we check it in the charge's own currency, which is exact when the two are
 * the same (the usual case: an organiser sells in the currency they are paid in).
 */
const STRIPE_MINIMUMS: Readonly<Record<string, number>> = {
  USD: 0.5,
  AED: 2,
  ARS: 0.5,
  AUD: 0.5,
  BRL: 0.5,
  CAD: 0.5,
  CHF: 0.5,
  COP: 0.5,
  CZK: 15,
  DKK: 2.5,
  EUR: 0.5,
  GBP: 0.3,
  HKD: 4,
  HUF: 175,
  IDR: 0.5,
  ILS: 0.5,
  INR: 0.5,
  JPY: 50,
  KRW: 50,
  MXN: 10,
  MYR: 2,
  NOK: 3,
  NZD: 0.5,
  PHP: 0.5,
  PLN: 2,
  RON: 2,
  RUB: 0.5,
  SEK: 3,
  SGD: 0.5,
  THB: 10,
  ZAR: 0.5,
};

/**
 * A currency the table does not list: 50 in Stripe's unit, as most of its rows are (0.50 of a two-decimal currency,
 * 50 of a zero-decimal one). Stripe may still refuse a charge that is less than its settlement currency's minimum
 * once converted; the checkout then answers Stripe's refusal.
 */
const DEFAULT_STRIPE_MINIMUM = 50;

/** The digits of Stripe's `amount` for any payment method (12 for IDR, 10 for COP, 9 for INR, else 8). */
const STRIPE_DIGITS: Readonly<Record<string, number>> = { IDR: 12, COP: 10, INR: 9 };
const DEFAULT_STRIPE_DIGITS = 8;

/** The least and the most Stripe charges in one payment, in the currency's minor units (each one it can charge). */
export function chargeLimits(currency: string): { minimum: number; maximum: number } {
  const code = currency.toUpperCase();
  const step = payableStep(code);
  const listed = STRIPE_MINIMUMS[code];
  const least = listed === undefined ? fromStripeAmount(DEFAULT_STRIPE_MINIMUM, code) : toMinor(listed, code);
  const most = fromStripeAmount(10 ** (STRIPE_DIGITS[code] ?? DEFAULT_STRIPE_DIGITS) - 1, code);
  return { minimum: Math.ceil(least / step) * step, maximum: Math.floor(most / step) * step };
}

/** Why Stripe would refuse to charge this many minor units, if it would; nothing to charge (0) is no charge. */
export function chargeLimitProblem(
  minor: number,
  currency: string,
): 'amount_below_minimum' | 'amount_above_maximum' | null {
  if (minor === 0) return null;
  const { minimum, maximum } = chargeLimits(currency);
  if (minor < minimum) return 'amount_below_minimum';
  return minor > maximum ? 'amount_above_maximum' : null;
}

/**
 * Major-unit amounts added in whole minor units, in major units. Without a currency (a ticket's costs, an order's
 * transactions: the currency is not at hand) they are added at the finest scale any currency has, which is as exact
 * for amounts that each fit their currency.
 */
export function addAmounts(amounts: readonly number[], currency?: string): number {
  const scale = currency === undefined ? FINEST_SCALE : 10 ** currencyExponent(currency);
  return amounts.reduce((sum, amount) => sum + Math.round(amount * scale), 0) / scale;
}

const FINEST_SCALE = 10 ** Math.max(...Object.values(EXPONENTS));

/** A major-unit price times a quantity, in major units. */
export const multiplyAmount = (amount: number, quantity: number, currency: string): number =>
  toMajor(toMinor(amount, currency) * quantity, currency);

/**
 * Splits `minor` minor units into shares by `weights` (whole numbers: counts, or each part's own minor units) that add
 * up to exactly `minor`, each a chargeable amount (a multiple of 10 fils in KWD): the largest remainder method, whose
 * leftover steps go to the shares with the largest remainders, the earlier share first on a tie. For a refund of part
 * of an order: the parts' shares of what was paid never add up to a fil more or less than it.
 */
export function splitAmount(minor: number, weights: readonly number[], currency: string): number[] {
  const step = payableStep(currency);
  if (!Number.isSafeInteger(minor) || minor < 0 || minor % step !== 0)
    throw new RangeError(`${minor} minor units of ${currency} cannot be split into chargeable shares.`);
  if (!weights.length || weights.some((weight) => !Number.isSafeInteger(weight) || weight < 0))
    throw new RangeError('Shares are split by whole, non-negative weights.');
  const whole = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  if (whole === 0n) throw new RangeError('Shares are split by weights that are not all 0.');
  const steps = BigInt(minor / step);
  const exact = weights.map((weight) => steps * BigInt(weight));
  const shares = exact.map((value) => value / whole);
  let left = Number(steps - shares.reduce((sum, share) => sum + share, 0n));
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value % whole }))
    .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.index - b.index));
  for (const { index } of byRemainder) {
    if (left-- <= 0) break;
    shares[index]! += 1n;
  }
  return shares.map((share) => Number(share) * step);
}

/**
 * The smallest amount that can be charged, in the currency's minor units (1 for most, 10 fils of KWD, 100 of MGA's
 * ISO cents): what every computed amount (a tax, a fee, a discount) is rounded to, so that any sum of them can be
 * charged as it is.
 */
export const chargeableUnit = (currency: string): number => payableStep(currency);

/**
 * `minor × part ÷ whole` (a percentage of an amount: a tax, a fee, a discount), rounded half away from zero to a
 * chargeable amount (a whole number of `chargeableUnit`s). Computed in integers (BigInt), so 887.5 cents is a tie
 * and goes to 888, never to float noise. Half away from zero is the commercial rule: pretix's `round_decimal`
 * (Python's ROUND_HALF_UP), the EU's euro conversion rule (Regulation 1103/97, art. 5: an exact half is rounded up);
 * a negative amount (a credit) rounds as its positive does, so a refund's figures mirror the sale's.
 */
export function proportionOf(minor: number, part: number, whole: number, currency: string): number {
  if (!Number.isSafeInteger(minor) || !Number.isSafeInteger(part) || part < 0)
    throw new RangeError(`${part}/${whole} of ${minor} minor units: whole numbers only, the part not negative.`);
  if (!Number.isSafeInteger(whole) || whole <= 0)
    throw new RangeError(`A proportion's whole must be above 0: ${whole}.`);
  const step = BigInt(payableStep(currency));
  const exact = BigInt(Math.abs(minor)) * BigInt(part);
  const unit = BigInt(whole) * step;
  const rounded = Number(((2n * exact + unit) / (2n * unit)) * step);
  return minor < 0 ? 0 - rounded : rounded;
}

/**
 * An amount as a mail or a page writes it: the code, then the amount with its currency's decimals (`JPY 1000`,
 * `EUR 12.50`, `KWD 1.500`); without a currency (an order of an event that has none) two decimals.
 */
export const formatAmount = (amount: number, currency: string | null | undefined): string =>
  currency ? `${currency.toUpperCase()} ${amount.toFixed(currencyExponent(currency))}` : amount.toFixed(2);
