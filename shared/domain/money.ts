import { currencyDecimals, fitsCurrency, hasDecimals, MOST_DECIMALS } from '../money.ts';
import * as z from '../schema.ts';

/** The most an amount of a request may be, in major units. */
export const MAX_AMOUNT = 1_000_000;

/**
 * An amount of money in a request: 0 to 1,000,000, with at most as many decimals as any currency takes (shared/money.ts:
 * an amount like 5e-324 is a valid JSON number that DynamoDB cannot store, below 1e-130). Where the currency is known
 * its own decimals are checked as well: `amountProblem`, or the use case against its event's currency.
 */
export const money = () =>
  z.number().check(
    z.minimum(0, 'must not be negative'),
    z.maximum(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`),
    z.refine((value) => hasDecimals(value, MOST_DECIMALS), `must have at most ${MOST_DECIMALS} decimal places`),
  );

/** Why an amount does not fit its currency (JPY 1000.5), as a field's message; nothing when it does. */
export function amountProblem(amount: number, currency: string): string | undefined {
  if (fitsCurrency(amount, currency)) return undefined;
  const code = currency.toUpperCase();
  const decimals = currencyDecimals(code);
  return decimals === 0
    ? `must be a whole number of ${code} (no decimal places)`
    : `must have at most ${decimals} decimal places in ${code}`;
}
