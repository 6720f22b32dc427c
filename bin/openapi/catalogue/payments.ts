import { type Entries, md } from './common.ts';

/** The `payments` tag: what the payment processor calls (ours; the spec has no checkout). */
export const PAYMENTS_TAG = md(
  'Payments: the routes Stripe calls. The buyer pays in the portal with Stripe.js and the PaymentIntent the checkout answers; Stripe tells the service the outcome by a signed webhook, and only that marks an order paid.',
);

export const PAYMENTS = {
  'POST /payments/stripe/webhook': {
    summary: "Stripe's events (the endpoint a stage registers in Stripe)",
    description: md(
      "Public, no token: Stripe's `Stripe-Signature` is the authentication. The raw body is verified before anything parses it, by the Stripe SDK (`constructEvent`) with the stage's webhook secret and 5 minutes' tolerance: a missing or wrong signature, a stale timestamp, or an event of another mode (`livemode`) or of a connected account (`account`) is refused with 400 and changes nothing.",
      'A verified event answers 200 `{received: true}` at once. Stripe delivers at least once, in any order and possibly late: each event is acted on once (a repeat, or an older state arriving after a newer one, changes nothing); a type the service does not act on, or an object it cannot read (null, another shape), is acknowledged and logged, never a 5xx.',
      "`payment_intent.succeeded` pays the order its `metadata.orderId` names only when the intent is the one that order's checkout stored and Stripe received the order's total in the order's currency. Any other succeeded payment (another intent, another amount or currency, no such order, no metadata) pays nothing: it is refunded in full at Stripe (one refund per intent however often delivered), recorded on the order it named and alarmed, so every payment is one order or one refund. `charge.refunded` (a refund the service made, or one made in Stripe's dashboard) records each of the charge's refunds on its order once, by the refund's id, as a negative transaction (only a refund of the order's own payment: the refund of a payment that named it without paying it is not the order's money); it cancels no ticket and moves no status (staff cancel with `POST /orders/{id}/cancel`, which then refunds nothing more). `charge.dispute.created`, `.updated` and `.closed` keep the dispute on the order of the disputed PaymentIntent (`GET /orders/{id}` `dispute`, `GET /orders?dispute=open`), an event older than the one recorded changing nothing. `refund.updated`, `refund.failed` and `charge.refund.updated` of a refund that failed (a closed card) add a positive transaction `<refund id>-failed` to its order once (and the refund's own when it was not recorded yet), shown as `refundFailures`; a refund that did not fail changes nothing there.",
      "A failure part-way through issuing a paid order's tickets answers 5xx, so Stripe delivers the event again: that delivery finishes the issue, each ticket once.",
    ),
  },
} satisfies Entries;
