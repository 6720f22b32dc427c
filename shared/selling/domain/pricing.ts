import { fitsCurrency, proportionOf, splitAmount, toMinor } from '../../money.ts';
import { type BookingFee, PERCENT_DECIMALS, percentage, type TaxRule } from './pricing-schemas.ts';

/**
 * Prices a reservation's lines: discount, booking fee and tax, every amount in the currency's minor units. Pure: the
 * sale passes in what it loaded (the types' prices and taxes, the event's fee, the fee's tax, a promo code's
 * discount, the shipping charge) and stores what comes out.
 *
 * The rules (shared/README.md, "Pricing"):
 * - **One rounding rule**: each computed amount (a line's discount, fee, tax) is `proportionOf` an amount in minor
 *   units, rounded half away from zero to a chargeable amount (shared/money.ts), once. Totals are sums of the rounded
 *   lines, never rounded again, so the lines always add up to them; a tax per rate is the sum of its lines' taxes.
 * - **Per line** (a type × its quantity), as an invoice lists it; a line's figures are split over its tickets by the
 *   largest remainder (`splitAmount`), so each ticket carries its share and the shares add up to the line.
 * - **The order**: the price (unitPrice × quantity), then the discount, then the fee, then the taxes. A discount
 *   lowers the tickets' price only (never the fee or shipping); tax is on the discounted price; a fee's `percent` is
 *   of the discounted price (before a tax added to it); a line left free (a 100 % discount, or a free type) carries
 *   no fee and no tax.
 * - **Discounts**: `percentOff` of each applicable line; `amountOff` spread over the applicable lines in proportion
 *   to their prices (`splitAmount`), capped at their price, so the lines' discounts add up to exactly the discount
 *   and no line goes below 0. Applicable: the lines of `typeIds`, or every line without them.
 * - **Taxes**: an inclusive rate's tax is inside the amount (`amount × rate ÷ (100 + rate)`); an exclusive one is
 *   added to it (`amount × rate ÷ 100`). Tickets, the fee (the stage's fee tax) and shipping each have their own.
 * - **As priced, and as paid**: a line's `amount` is what the buyer pays for its tickets (the discounted price, plus
 *   its tax when added); `fee` and `shipping` are as priced (before a tax added to them, in `feeTax`/the shipping's
 *   `tax`). So `total` = tickets − discount + fees + shipping + taxAdded, and `tax` counts every tax, included or
 *   added.
 */

export type Discount = ({ percentOff: number } | { amountOff: number }) & { typeIds?: readonly number[] };

export interface PricingLine {
  typeId: number;
  quantity: number;
  /** Major units, as a ticket type stores its price. */
  unitPrice: number;
  tax?: TaxRule;
}

export interface PricingInput {
  currency: string;
  lines: readonly PricingLine[];
  bookingFee?: BookingFee;
  /** The stage's tax on booking fees (none: the fee is untaxed). */
  feeTax?: TaxRule;
  discount?: Discount;
  /** The shipping charge in major units, and its tax. */
  shipping?: { amount: number; tax?: TaxRule };
}

/** One ticket's share of its line. */
export interface TicketShare {
  amount: number;
  taxAmount: number;
  fee: number;
  feeTax: number;
}

/** A priced line, in minor units. */
export interface PricedLine {
  typeId: number;
  quantity: number;
  unitPrice: number;
  /** unitPrice × quantity, before the discount. */
  price: number;
  discount: number;
  /** The booking fee for the line's tickets, as priced; `feeTax` its tax (inside it, or added to it). */
  fee: number;
  feeTax: number;
  /** The tax on the tickets' discounted price. */
  tax: number;
  /** What the buyer pays for the tickets: the discounted price, plus the tax when it is added. */
  amount: number;
  tickets: TicketShare[];
}

export interface PricedAmounts {
  tickets: number;
  discount: number;
  fees: number;
  shipping: number;
  /** Every tax, included in a price or added to it. */
  tax: number;
  /** The part of `tax` added on top of prices (0 where every price includes its tax). */
  taxAdded: number;
  total: number;
  currency: string;
}

/** What an invoice lists per rate: the taxed amounts' net, tax and gross. */
export interface RateTotal {
  name: string;
  rate: number;
  net: number;
  tax: number;
  gross: number;
}

export interface Pricing {
  lines: PricedLine[];
  shipping: { amount: number; tax: number };
  amounts: PricedAmounts;
  /** Per tax (name and rate), in the order first met; untaxed and free amounts (a free line, no fee) are not listed. */
  taxRates: RateTotal[];
}

/** 100 %, in the thousandths of a percent that a rate's 3 decimals allow: rates are exact integers from here on. */
const WHOLE = 100 * 10 ** PERCENT_DECIMALS;
const thousandths = (percent: number): number => Math.round(percent * 10 ** PERCENT_DECIMALS);

/** An amount as priced, its tax, what the buyer pays for it, and under which rule. */
interface Taxed {
  priced: number;
  tax: number;
  paid: number;
  rule?: TaxRule;
}

function taxed(priced: number, rule: TaxRule | undefined, currency: string): Taxed {
  if (!rule) return { priced, tax: 0, paid: priced };
  const rate = thousandths(rule.rate);
  const tax = proportionOf(priced, rate, rule.inclusive ? WHOLE + rate : WHOLE, currency);
  return { priced, tax, paid: rule.inclusive ? priced : priced + tax, rule };
}

/** Each line's discount, by the rules above. */
function discounts(prices: readonly number[], input: PricingInput): number[] {
  const { discount, currency, lines } = input;
  if (!discount) return prices.map(() => 0);
  const applies = (index: number) => !discount.typeIds || discount.typeIds.includes(lines[index]!.typeId);
  if ('percentOff' in discount)
    return prices.map((price, index) =>
      applies(index) ? proportionOf(price, thousandths(discount.percentOff), WHOLE, currency) : 0,
    );
  const weights = prices.map((price, index) => (applies(index) ? price : 0));
  const applicable = weights.reduce((sum, weight) => sum + weight, 0);
  if (applicable === 0) return prices.map(() => 0);
  return splitAmount(Math.min(toMinor(discount.amountOff, currency), applicable), weights, currency);
}

/** The booking fee for `quantity` tickets whose discounted price is `discounted`, as priced; none on a free line. */
function lineFee(discounted: number, quantity: number, input: PricingInput): number {
  const { bookingFee, currency } = input;
  if (!bookingFee || discounted === 0) return 0;
  const perTicket = toMinor(bookingFee.perTicket ?? 0, currency) * quantity;
  return perTicket + proportionOf(discounted, thousandths(bookingFee.percent ?? 0), WHOLE, currency);
}

/** A line's figures split over its tickets, each by the largest remainder. */
function ticketShares(figures: TicketShare, quantity: number, currency: string): TicketShare[] {
  const each = Array.from({ length: quantity }, () => 1);
  const [amount, taxAmount, fee, feeTax] = [figures.amount, figures.taxAmount, figures.fee, figures.feeTax].map(
    (minor) => splitAmount(minor, each, currency),
  );
  return each.map((_, at) => ({
    amount: amount![at]!,
    taxAmount: taxAmount![at]!,
    fee: fee![at]!,
    feeTax: feeTax![at]!,
  }));
}

/** Prices the lines, the fee, the discount and shipping (module comment: the rules). */
export function priceReservation(input: PricingInput): Pricing {
  checkInput(input);
  const { currency } = input;
  const prices = input.lines.map((line) => toMinor(line.unitPrice, currency) * line.quantity);
  const lineDiscounts = discounts(prices, input);
  const priced = input.lines.map((line, index) => priceLine(line, prices[index]!, lineDiscounts[index]!, input));
  const lines = priced.map(({ line }) => line);
  const shipping = taxed(toMinor(input.shipping?.amount ?? 0, currency), input.shipping?.tax, currency);
  const items = [...priced.flatMap(({ items }) => items), shipping];
  return {
    lines,
    shipping: { amount: shipping.priced, tax: shipping.tax },
    amounts: totals(lines, shipping, items, currency),
    taxRates: rateTotals(items),
  };
}

/** One line, its discount given: the fee on what is left, the taxes, each ticket's share. */
function priceLine(line: PricingLine, price: number, discount: number, input: PricingInput) {
  const { currency } = input;
  const tickets = taxed(price - discount, line.tax, currency);
  const fee = taxed(lineFee(price - discount, line.quantity, input), input.feeTax, currency);
  const shares = { amount: tickets.paid, taxAmount: tickets.tax, fee: fee.priced, feeTax: fee.tax };
  const priced: PricedLine = {
    typeId: line.typeId,
    quantity: line.quantity,
    unitPrice: toMinor(line.unitPrice, currency),
    price,
    discount,
    fee: fee.priced,
    feeTax: fee.tax,
    tax: tickets.tax,
    amount: tickets.paid,
    tickets: ticketShares(shares, line.quantity, currency),
  };
  return { line: priced, items: [tickets, fee] };
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

function totals(lines: readonly PricedLine[], shipping: Taxed, items: readonly Taxed[], currency: string) {
  const taxAdded = sum(items.map((item) => item.paid - item.priced));
  const amounts = {
    tickets: sum(lines.map((line) => line.price)),
    discount: sum(lines.map((line) => line.discount)),
    fees: sum(lines.map((line) => line.fee)),
    shipping: shipping.priced,
    tax: sum(items.map((item) => item.tax)),
    taxAdded,
  };
  const total = amounts.tickets - amounts.discount + amounts.fees + amounts.shipping + taxAdded;
  return { ...amounts, total, currency } satisfies PricedAmounts;
}

/** The taxed amounts per tax (name and rate), each the sum of its rounded items: an invoice's tax lines. */
function rateTotals(items: readonly Taxed[]): RateTotal[] {
  return totalsPerRate(
    items.flatMap(({ rule, tax, paid }) =>
      rule && paid !== 0 ? [{ name: rule.name, rate: rule.rate, gross: paid, tax }] : [],
    ),
  );
}

/** Amounts summed per tax (its name and rate), in the order each rate first comes: a reservation's and an invoice's. */
export function totalsPerRate(
  items: readonly { name: string; rate: number; gross: number; tax: number }[],
): RateTotal[] {
  const byRate = new Map<string, RateTotal>();
  for (const { name, rate, gross, tax } of items) {
    const key = JSON.stringify([name, rate]);
    const entry = byRate.get(key) ?? { name, rate, net: 0, tax: 0, gross: 0 };
    byRate.set(key, { ...entry, net: entry.net + gross - tax, tax: entry.tax + tax, gross: entry.gross + gross });
  }
  return [...byRate.values()];
}

/**
 * What the pricing takes, checked as the API's schemas do (pricing-schemas.ts) and the use cases against the
 * currency: a RangeError here is a caller's bug (a stored price that does not fit its currency), never a client's.
 */
const PERCENTAGE = percentage();

function checkInput(input: PricingInput): void {
  const { currency, discount } = input;
  const amounts = [
    ...input.lines.map((line) => line.unitPrice),
    input.bookingFee?.perTicket ?? 0,
    input.shipping?.amount ?? 0,
    discount && 'amountOff' in discount ? discount.amountOff : 0,
  ];
  const bad = amounts.find((amount) => amount < 0 || !fitsCurrency(amount, currency));
  if (bad !== undefined) throw new RangeError(`${bad} is not an amount of ${currency} to price.`);
  const percents = [
    ...[...input.lines.map((line) => line.tax), input.feeTax, input.shipping?.tax].map((rule) => rule?.rate ?? 0),
    input.bookingFee?.percent ?? 0,
    discount && 'percentOff' in discount ? discount.percentOff : 0,
  ];
  const badPercent = percents.find((percent) => !PERCENTAGE.safeParse(percent).success);
  if (badPercent !== undefined) throw new RangeError(`${badPercent} is not a percentage to price with.`);
  const badLine = input.lines.find((line) => !Number.isSafeInteger(line.quantity) || line.quantity < 1);
  if (badLine) throw new RangeError(`A line of type ${badLine.typeId} has no tickets to price: ${badLine.quantity}.`);
}
