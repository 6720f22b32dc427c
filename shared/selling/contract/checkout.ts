import * as z from '../../schema.ts';
import { ReservationAmountsResource } from '../domain/sale-prices.ts';

export { CheckoutAttendeeBody, CheckoutBody } from '../domain/checkout-body.ts';

const amount = () => z.number().check(z.describe("In the event's currency, major units (as every amount of the API)."));

export const CheckoutResource = z.lazy(() =>
  z
    .strictObject({
      order: z.strictObject({
        id: z.string(),
        // `pending`: paid (a free order at once), its tickets issued behind the answer.
        status: z.enum(['awaiting_payment', 'pending', 'active']),
        grandTotal: amount(),
        currency: z.string(),
        reservationId: z.int(),
        amounts: ReservationAmountsResource,
      }),
      payment: z.nullable(
        z.strictObject({
          processor: z.literal('stripe'),
          clientSecret: z.string(),
          publishableKey: z.string(),
          amount: z
            .int()
            .check(
              z.describe(
                "In Stripe's unit for the currency (JPY 1000 for ¥1,000, EUR 1250 for €12.50), as Stripe.js takes it.",
              ),
            ),
          currency: z.string(),
        }),
      ),
    })
    .check(
      z.describe(
        'The order awaiting payment and what Stripe.js needs to confirm it; `payment` null for a free order, paid at once (`pending`, its tickets to follow).',
      ),
    ),
);
