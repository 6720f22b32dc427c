import { addAmounts, splitAmount, toMajor, toMinor } from '../../money.ts';
import * as z from '../../schema.ts';
import type { Event, TicketType } from '../../events/domain/event.ts';
import { type Discount, type PricedLine, priceReservation } from './pricing.ts';

/**
 * A sale's prices as a reservation and an order store and answer them (a portal hold's, a box-office sale's), in the
 * event's currency's major units, as every amount of the API: the pure pricing (pricing.ts `priceReservation`: one
 * rounding rule, in minor units) applied to what the sale loaded, and each ticket's share of its line when it is issued.
 */

/**
 * A line as priced and stored: its answer's fields, and the two that say which part of it is the booking fee's. Each
 * of the pricing's figures is stored only when it is not 0 (an untaxed line without fee stores what it did before the
 * pricing: a reservation's item is 1 KB, 2 write units, up to four lines priced in full); `lineView` answers 0.
 */
export interface ReservationLine {
  typeId: number;
  name: string;
  quantity: number;
  waveTimeId: number | null;
  /** The type's price, as it was when held. */
  unitPrice: number;
  discount?: number;
  /** The booking fee on the line's tickets, as priced (before a tax added to it). */
  fee?: number;
  /** Every tax on the line: its tickets' and its fee's, included or added. */
  tax?: number;
  /** All the buyer pays for the line: its tickets, discounted, and its fee, each with a tax added to it. */
  amount: number;
  /** The fee's part of `amount` (its added tax included) and of `tax`: the rest is the tickets' (ticketPrices). */
  feePaid?: number;
  feeTax?: number;
}

const amount = () => z.number().check(z.describe("In the event's currency, major units (as every amount of the API)."));

/**
 * The sale's sums, as the reservation and the orders answer them: each the sum of the lines (and shipping), each
 * rounded once in the currency's minor units, so the lines add up to it.
 */
export const ReservationAmountsResource = z.lazy(() =>
  z
    .strictObject({
      tickets: amount().check(z.describe('The unit prices × quantities, before the discount.')),
      discount: amount(),
      fees: amount().check(z.describe('The booking fees, as priced (before a tax added to them).')),
      shipping: amount().check(z.describe('As priced (before a tax added to it).')),
      tax: amount().check(z.describe('Every tax, included in a price or added to it.')),
      total: amount().check(z.describe('What the buyer pays: tickets − discount + fees + shipping + the taxes added.')),
      currency: z.string(),
    })
    .check(
      z.describe(
        'The sale\'s sums in the event\'s currency (shared/README.md "Pricing": one rounding rule, half away from zero, per line).',
      ),
    ),
);
export type ReservationAmounts = z.output<typeof ReservationAmountsResource>;

export interface SaleToPrice {
  lines: readonly { typeId: number; quantity: number; waveTimeId?: number }[];
  types: ReadonlyMap<number, Pick<TicketType, 'name' | 'price' | 'tax'>>;
  event: Pick<Event, 'bookingFee' | 'feeTax' | 'shippingTax'>;
  currency: string;
  /** The shipping charge, in major units (0: none). */
  shipping: number;
  /** A promo code's, when the sale names one. */
  discount?: Discount;
}

/** Prices a sale by its types' prices and taxes and its event's fee and taxes (shared/README.md "Pricing"). */
export function priceSale(sale: SaleToPrice): { lines: ReservationLine[]; amounts: ReservationAmounts } {
  const { currency, event } = sale;
  const type = (typeId: number) => sale.types.get(typeId)!;
  const pricing = priceReservation({
    currency,
    lines: sale.lines.map(({ typeId, quantity }) => ({
      typeId,
      quantity,
      unitPrice: type(typeId).price,
      tax: type(typeId).tax ?? undefined,
    })),
    bookingFee: event.bookingFee ?? undefined,
    feeTax: event.feeTax ?? undefined,
    discount: sale.discount,
    shipping: { amount: sale.shipping, tax: event.shippingTax ?? undefined },
  });
  const major = (minor: number) => toMajor(minor, currency);
  const lines = pricing.lines.map((priced, at) => storedLine(priced, sale, sale.lines[at]!.waveTimeId ?? null));
  const { tickets, discount, fees, shipping, tax, total } = pricing.amounts;
  const amounts = { tickets, discount, fees, shipping, tax, total };
  return {
    lines,
    amounts: {
      ...(Object.fromEntries(Object.entries(amounts).map(([name, minor]) => [name, major(minor)])) as typeof amounts),
      currency,
    },
  };
}

/** A priced line as stored, in major units: the fee's part told apart, each figure of 0 left out. */
function storedLine(priced: PricedLine, sale: SaleToPrice, waveTimeId: number | null): ReservationLine {
  const major = (minor: number) => toMajor(minor, sale.currency);
  const feeTaxAdded = sale.event.feeTax ? !sale.event.feeTax.inclusive : false;
  const feePaid = priced.fee + (feeTaxAdded ? priced.feeTax : 0);
  const figures = {
    discount: priced.discount,
    fee: priced.fee,
    tax: priced.tax + priced.feeTax,
    feePaid,
    feeTax: priced.feeTax,
  };
  return {
    typeId: priced.typeId,
    name: sale.types.get(priced.typeId)!.name,
    quantity: priced.quantity,
    waveTimeId,
    unitPrice: major(priced.unitPrice),
    amount: major(priced.amount + feePaid),
    ...Object.fromEntries(Object.entries(figures).flatMap(([name, minor]) => (minor ? [[name, major(minor)]] : []))),
  };
}

/**
 * One ticket's share of its line: its `price` (net of tax, discounted), `taxAmount`, and its part of the fee; and,
 * for the event's sales figures (sale-figures.ts), its part of the line's `discount` and of the fee's tax (inside
 * `bookingFee`).
 */
export interface TicketPrice {
  price: number;
  taxAmount: number;
  bookingFee: number;
  discount: number;
  feeTax: number;
}

/**
 * Each ticket's share of its line, split by the largest remainder as the pricing splits a line (pricing.ts), so the
 * tickets of a line add up to it: `price` + `taxAmount` is what the buyer paid for the ticket (the spec's
 * `costs.total`), `bookingFee` its part of the fee with a tax added to it.
 */
export function ticketPrices(line: ReservationLine, currency: string): TicketPrice[] {
  const minor = (major: number | undefined) => toMinor(major ?? 0, currency);
  const each = Array.from({ length: line.quantity }, () => 1);
  const split = (amount: number) => splitAmount(amount, each, currency);
  const paid = split(minor(line.amount) - minor(line.feePaid));
  const tax = split(minor(line.tax) - minor(line.feeTax));
  const fee = split(minor(line.feePaid));
  const discount = split(minor(line.discount));
  const feeTax = split(minor(line.feeTax));
  return each.map((_, n) => ({
    price: toMajor(paid[n]! - tax[n]!, currency),
    taxAmount: toMajor(tax[n]!, currency),
    bookingFee: toMajor(fee[n]!, currency),
    discount: toMajor(discount[n]!, currency),
    feeTax: toMajor(feeTax[n]!, currency),
  }));
}

/** What the buyer paid for an issued ticket, in minor units: what a part's cancel refunds for it (cancel-part.ts). */
export const paidForTicket = (
  ticket: Pick<TicketPrice, 'price' | 'taxAmount'> & { bookingFee?: number },
  currency: string,
) => toMinor(ticket.price, currency) + toMinor(ticket.taxAmount, currency) + toMinor(ticket.bookingFee ?? 0, currency);

/** What sold tickets add to their type's sales sums (sale-figures.ts says what each is), in major units. */
export interface SaleSums {
  gross: number;
  tax: number;
  fees: number;
  discount: number;
}

export const SALE_SUMS = ['gross', 'tax', 'fees', 'discount'] as const satisfies readonly (keyof SaleSums)[];

export const NO_SALES: SaleSums = { gross: 0, tax: 0, fees: 0, discount: 0 };

/** A ticket's figures as stored on it (tickets/domain/ticket.ts), in major units. */
export interface SoldTicketFigures {
  price: number;
  taxAmount: number;
  bookingFee?: number;
  discount?: number;
  feeTax?: number;
}

/** What one sold ticket adds to its type's sums. */
export function ticketSums(ticket: SoldTicketFigures): SaleSums {
  const fee = ticket.bookingFee ?? 0;
  const feeTax = ticket.feeTax ?? 0;
  return {
    gross: addAmounts([ticket.price, ticket.taxAmount, fee]),
    tax: addAmounts([ticket.taxAmount, feeTax]),
    fees: addAmounts([fee, -feeTax]),
    discount: ticket.discount ?? 0,
  };
}

/** `a` + `sign` × `b`, each sum added exactly. */
export function addSums(a: SaleSums, b: SaleSums, sign: 1 | -1 = 1): SaleSums {
  const add = (name: keyof SaleSums) => addAmounts([a[name], sign * b[name]]);
  return { gross: add('gross'), tax: add('tax'), fees: add('fees'), discount: add('discount') };
}

/** The sums of several tickets (`sign` −1: taken away). */
export const sumsOf = (tickets: readonly SoldTicketFigures[], sign: 1 | -1 = 1): SaleSums =>
  tickets.reduce((sum, ticket) => addSums(sum, ticketSums(ticket), sign), NO_SALES);

export const isNoSale = (sums: SaleSums): boolean => SALE_SUMS.every((name) => sums[name] === 0);
