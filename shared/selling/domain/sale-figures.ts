import { toMajor, toMinor } from '../../money.ts';
import type { SaleSums } from './sale-prices.ts';

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
 * numbers exactly, and each is added here at the finest scale (money.ts `addAmounts`: sale-prices.ts `ticketSums`), so no
 * currency is read to move them; the summary converts each shard's to minor units of the event's currency before summing.
 */

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
  const [gross, tax, fees, discount] = [minor('gross'), minor('tax'), minor('fees'), minor('discount')];
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

/** An event's figures: per type and in total, in its currency (GET /events/{id}/sales; contract/sales.ts). */
export interface EventSales {
  eventId: number;
  currency: string;
  totals: SalesFigures;
  types: ({ typeId: number; name: string } & SalesFigures)[];
}
