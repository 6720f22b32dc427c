/**
 * Money, in one place. The API speaks major units (`12.5` EUR), as the spec does; every sum, share, comparison and
 * amount sent to or read from Stripe is a whole number of the currency's minor units (ISO 4217 exponent: JPY 0,
 * EUR 2, KWD 3), converted here and nowhere else.
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

/** The number of decimals of a currency's minor unit (any case). */
export const currencyExponent = (currency: string): number => EXPONENTS[currency.toUpperCase()] ?? 2;

/** A major-unit amount (as the API holds it) in whole minor units; rounds away only float noise (0.1 + 0.2). */
export const toMinor = (amount: number, currency: string): number =>
  Math.round(amount * 10 ** currencyExponent(currency));

/** Whole minor units as the API answers them, in major units. */
export const toMajor = (minor: number, currency: string): number => minor / 10 ** currencyExponent(currency);

/** True when a major-unit amount has no more decimals than its currency has (JPY 1000, not 1000.5). */
export const fitsCurrency = (amount: number, currency: string): boolean =>
  Number.isFinite(amount) && toMajor(toMinor(amount, currency), currency) === amount;
