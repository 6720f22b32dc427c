import * as z from '../../schema.ts';

/** The contract of `POST /payments/stripe/webhook` (functions/payments/). */

/**
 * A Stripe event as Stripe posts it (https://docs.stripe.com/api/events/object). Documentation only: the
 * route reads the raw text and verifies its `Stripe-Signature` before anything parses it (route() `raw`).
 */
export const StripeEventBody = z.lazy(() =>
  z.looseObject({
    id: z.string().check(z.maxLength(255), z.describe('`evt_…`')),
    object: z.literal('event'),
    type: z
      .string()
      .check(
        z.maxLength(255),
        z.describe('`payment_intent.succeeded`, `payment_intent.payment_failed`, `charge.refunded`, …'),
      ),
    livemode: z.boolean(),
    created: z.int(),
    data: z.looseObject({ object: z.looseObject({}) }),
  }),
);

/** Stripe needs only a 2xx, soon: the answer says the event was verified and taken. */
export const StripeWebhookReceipt = z.lazy(() => z.strictObject({ received: z.literal(true) }));
