/**
 * The contract of an event's sales figures (`GET /events/{id}/sales`): per ticket type and for the event, from the
 * types' kept sums (shared/selling/domain/sale-figures.ts), in major units of the event's currency.
 */
import * as z from '../../schema.ts';

const amount = (what: string) =>
  z.number().check(z.describe(`${what} In the event's currency, major units (as every amount of the API).`));

const figures = {
  sold: z.int().check(z.describe('Tickets sold that hold a place now (cancelled, refunded or transferred away: not).')),
  gross: amount('What buyers paid for them: price, taxes and booking fees (shipping not included).'),
  net: amount('`gross` less every tax.'),
  tax: amount("Every tax in `gross`: the tickets' and the booking fees'."),
  fees: amount('The booking fees in `gross`, net of their tax.'),
  discount: amount('What promo codes took off their prices (not in `gross`).'),
};

export const TypeSalesResource = z.lazy(() =>
  z.strictObject({
    typeId: z.int(),
    name: z.string(),
    ...figures,
  }),
);

export const EventSalesResource = z.lazy(() =>
  z.strictObject({
    eventId: z.int(),
    currency: z.string(),
    totals: z.strictObject(figures),
    types: z.array(TypeSalesResource),
  }),
);
