import { addAmounts, toMajor, toMinor } from '../../money.ts';

/**
 * An event's sales figures per ticket type (GET /events/{id}/sales): what its sold tickets brought, kept as sums on
 * the type's stock shards beside their `sold` and moved in the same update (data/stock.ts), so the figures are exact
 * as soon as a sale, a cancel or a transfer has answered, without reading an order. Each sold ticket adds its own
 * figures, as the sale priced and stored them on it (sale-prices.ts `ticketPrices`), and a ticket that stops holding
 * a place takes away exactly what it added:
 *
 * - `gross`: what the buyer paid for it: `price` + `taxAmount` + `bookingFee` (the fee's added tax included);
 * - `tax`: every tax in that: the ticket's `taxAmount` and its part of the fee's tax (`feeTax`);
 * - `fees`: its part of the booking fee, net of the fee's tax;
 * - `discount`: its part of its line's promo code discount (not in `gross`: what was not paid).
 *
 * `net` (gross − tax) is derived on read. Sums are in major units, as the tickets' own figures: DynamoDB adds decimal
 * numbers exactly, and each is added here at the finest scale (money.ts `addAmounts`), so no currency is read to move
 * them; the summary converts each shard's to minor units of the event's currency before summing.
 */
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
export const addSums = (a: SaleSums, b: SaleSums, sign: 1 | -1 = 1): SaleSums =>
  Object.fromEntries(SALE_SUMS.map((name) => [name, addAmounts([a[name], sign * b[name]])])) as unknown as SaleSums;

/** The sums of several tickets (`sign` −1: taken away). */
export const sumsOf = (tickets: readonly SoldTicketFigures[], sign: 1 | -1 = 1): SaleSums =>
  tickets.reduce((sum, ticket) => addSums(sum, ticketSums(ticket), sign), NO_SALES);

export const isNoSale = (sums: SaleSums): boolean => SALE_SUMS.every((name) => sums[name] === 0);

/** A type's (or the event's) figures as answered, in major units of the event's currency. */
export interface SalesFigures {
  sold: number;
  gross: number;
  net: number;
  tax: number;
  fees: number;
  discount: number;
}

/** One stock shard's `sold` and sums as stored (absent sums: 0, a shard no sale has moved yet). */
export type ShardSales = { sold: number } & SaleSums;

/** Shards summed in the currency's minor units (each shard's sums exact in major units), answered in major units. */
export function salesFigures(shards: readonly ShardSales[], currency: string): SalesFigures {
  const minor = (name: keyof SaleSums) => shards.reduce((sum, shard) => sum + toMinor(shard[name], currency), 0);
  const [gross, tax, fees, discount] = SALE_SUMS.map(minor) as [number, number, number, number];
  const major = (value: number) => toMajor(value, currency);
  return {
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
    gross: major(gross),
    net: major(gross - tax),
    tax: major(tax),
    fees: major(fees),
    discount: major(discount),
  };
}
