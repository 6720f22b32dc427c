import * as z from '../../schema.ts';
import { ReservationAmountsResource } from '../domain/sale-prices.ts';
import { MAX_TICKETS_PER_RESERVATION, RESERVATION_STATES } from '../domain/reservation.ts';

export { NewReservationBody } from '../domain/reservation.ts';

const amount = () => z.number().check(z.describe("In the event's currency, major units (as every amount of the API)."));

export const ReservationResource = z.lazy(() =>
  z
    .strictObject({
      id: z.int(),
      eventId: z.int(),
      status: z.enum(RESERVATION_STATES),
      expiresAt: z.iso
        .datetime()
        .check(z.describe('When it lapses unless paid; its tickets are on sale again within a minute after.')),
      lines: z.array(
        z.strictObject({
          typeId: z.int(),
          name: z.string(),
          quantity: z.int().check(z.maximum(MAX_TICKETS_PER_RESERVATION)),
          waveTimeId: z.nullable(z.int()),
          unitPrice: amount(),
          discount: amount(),
          fee: amount().check(z.describe("The line's booking fee, as priced (before a tax added to it).")),
          tax: amount().check(z.describe("Every tax on the line: its tickets' and its fee's, included or added.")),
          amount: amount().check(
            z.describe(
              'All the buyer pays for the line: its tickets, discounted, and its fee, each with any tax added.',
            ),
          ),
        }),
      ),
      shippingMethodId: z.nullable(z.int()),
      amounts: ReservationAmountsResource,
      promoCode: z.nullable(z.string().check(z.describe('The promo code the hold uses, as its event spells it.'))),
    })
    .check(z.describe('Tickets of one event held for the customer until `expiresAt`.')),
);
