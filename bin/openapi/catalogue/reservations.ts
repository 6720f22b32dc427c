import { type Entries, md } from './common.ts';

/** The `my-account` tag's reservation routes: joined with the tag's other entries in catalogue.ts. */
export const RESERVATIONS = {
  'POST /my-account/reservations': {
    summary: 'Reserve tickets (ours)',
    description: md(
      "Holds tickets of one event for the caller for the event's `reservationMinutes` (default 10, `PATCH /events/{id}`): 201 `{count: 1, data: reservation}` with `status: \"held\"`, `expiresAt`, each line priced by its type (`unitPrice`, `discount`, `fee`: the booking fee as priced, `tax`: every tax on the line, its tickets' and its fee's, `amount`: all the buyer pays for the line, tax added) and `amounts` `{tickets, discount, fees, shipping, tax, total, currency}` (`total` = tickets − discount + fees + shipping + the taxes added to prices; `tax` every tax, included or added; the lines and shipping add up to them), priced by the server from the type's `tax`, the event's `bookingFee`, `feeTax` and `shippingTax` (`PATCH /events/{id}`), each tax and fee rounded once per line in the currency's minor units, half away from zero (EUR 121 with 21 % included: tax 21; USD 100 with 8.875 % added: tax 8.88, total 108.88), shipping by the method's `chargeType` (`per_order`: `charge` once; `per_ticket`: `charge`, then `twoPlusCharge` each further ticket). Amounts are decimal numbers in the event's `currency`, as every amount of the API, summed in its minor units (ISO 4217: JPY 0 decimals, EUR 2, KWD 3). The body names only what to hold: a price, amount, tax, fee or discount field is unknown, a 400. Each id (`eventId`, `typeId`, `waveTimeId`, `shippingMethodId`) is a number or its digits as a string (`\"7\"`, as the portal's lists answer event and type ids; not `\"07\"`, at most 15 digits), with the same answer.",
      "Refusals change nothing: an unknown event (and, word for word, an unpublished one the caller holds no order for), or a type, wave or shipping method not of the event, is 400 naming the field (a type and wave named twice too); 409 `not_on_sale` (the event is unpublished and the caller holds an order of it, or it is before `onSaleDate` or from `cutOff` on), `max_per_order` (more than 10 tickets, `maxPerOrder`), `hold_limit_customer` (more than the event's `maxHeldPerCustomer`, named), `reservation_exists` (the caller holds one for the event: its `reservationId`), `hold_cool_down` (the caller's last hold of the event ended unpaid less than 2 minutes ago: `coolsUntil`, `retryAfterSeconds` and `Retry-After`), `hold_limit_network` (the caller's network, an IPv4 address or an IPv6 /64, would hold more of the event at once than its `maxHeldPerNetwork`, named), `sold_out` (naming the first type short, `typeId`, and what it has `left`); for a `promoCode` (the event's, any case: `GET /events/{id}/promo-codes`), `promo_code_invalid` (no such code of the event, or outside its `validFrom`/`validUntil`), `promo_code_not_applicable` (none of the held types is one of its `typeIds`), `promo_code_used_up` (its `maxUses` all taken by holds and paid orders), each with the `promoCode` named; `amount_below_minimum` / `amount_above_maximum` when the total is above 0 but below the least Stripe charges in that currency, or above the most (`total`, `minimum`, `maximum`, `currency`, in major units: the minimum from Stripe's table, e.g. EUR 0.50, GBP 0.30, JPY 50, else 50 of Stripe's unit; the maximum 8 digits of Stripe's unit, e.g. EUR 999,999.99), so no hold is made that cannot be paid (a free hold, total 0, is allowed: a code of 100 % makes one); `shipping_charge_not_in_currency` when a `charge` or `twoPlusCharge` the shipping method would apply has more decimals than the event's currency takes (methods are stage-wide: 9.5 for a JPY event; `shippingMethodId`, `charge`, `currency`): never rounded.",
      "Each hold is taken with conditional writes on the type's stock, so the tickets held and sold never pass a type's `total` whatever the rush. An unpaid reservation lapses after its minutes and its tickets are on sale again within a minute. What is held at once is capped per event (`maxHeldPerCustomer`, default 10; `maxHeldPerNetwork`, default 40: `PATCH /events/{id}`): a network's count is kept in each hold's transaction and given back when the hold is released, lapses or is paid, so no rush passes it. At most 60 reservations a minute per client network (429 with `Retry-After`); a customer holds one reservation of an event at a time. An event's changes (unpublished, a price, its caps) reach holds within 5 seconds; what is left never waits. A promo code's discount (`amounts.discount`, the code as `promoCode`) comes off the tickets only, by one rounding rule in the currency's minor units; the hold takes one of the code's uses in its own transaction, so a refused hold takes none, and a release or lapse gives it back. `Idempotency-Key` answers a retry as the first time.",
    ),
    conflicts: [
      'not_on_sale',
      'max_per_order',
      'hold_limit_customer',
      'reservation_exists',
      'hold_cool_down',
      'hold_limit_network',
      'sold_out',
      'amount_below_minimum',
      'amount_above_maximum',
      'shipping_charge_not_in_currency',
      'promo_code_invalid',
      'promo_code_not_applicable',
      'promo_code_used_up',
      'concurrent_update',
    ],
    example: { eventId: 1, lines: [{ typeId: 1, quantity: 2 }], shippingMethodId: 1, promoCode: 'EARLYBIRD' },
  },
  'GET /my-account/reservations/{id}': {
    summary: 'A reservation of the caller (ours)',
    description:
      "The caller's own reservation, in any state (`held`, `checked_out`, `paid`, `released`, `lapsed`); another customer's is 404.",
  },
  'DELETE /my-account/reservations/{id}': {
    summary: 'Release a reservation (ours)',
    description:
      "Gives the tickets back (one transaction) and answers the reservation `released`; a checked-out one's order awaiting payment becomes `expired` in the same transaction and its PaymentIntent is cancelled, so it can no longer be paid. The caller may hold the event again 2 minutes after (409 `hold_cool_down` before), so that the tickets are on sale to others meanwhile. Idempotent: a reservation released or lapsed already answers as it is; a paid one, or one whose payment came in and is issuing its tickets, is 409 `reservation_paid`; another customer's is 404.",
    conflicts: ['reservation_paid', 'concurrent_update'],
  },
  'POST /my-account/reservations/{id}/checkout': {
    summary: 'Check a reservation out (ours)',
    description: md(
      "Turns the caller's held reservation into an order awaiting payment: 201 `{count: 1, data: {order, payment}}`, `order` `{id, status: \"awaiting_payment\", grandTotal, currency, reservationId}` (the reservation's amounts: the body carries none, an amount field is a 400) and `payment` `{processor: \"stripe\", clientSecret, publishableKey, amount, currency}` for Stripe.js's `confirmPayment` (`amount` in Stripe's unit for the currency: JPY 1000 for ¥1,000, EUR 1250 for €12.50, KWD 1500 for KWD 1.5, ISK 500 for ISK 5). The PaymentIntent takes cards only (wallets such as Apple Pay and Google Pay are cards): a payment method that settles days later (SEPA Direct Debit, ACH) could succeed after the reservation ended. The body has one attendee per held ticket, in line order (`firstName`, `lastName`, `email`, optional `birthDate` `yyyy-mm-dd`, `title`, `company`, `answers` to the event's questions, the required ones required) and `shippingAddress` with its `shippingCountry` (ISO 3166-1 alpha-2, upper case) exactly where the shipping method `requiresShippingInfo`: a method whose `allowInternational` is false posts within the stage's home country only (another country is a 400 naming `body.shippingCountry`).",
      "The reservation becomes `checked_out` and is kept 15 minutes from now for the payment, but never past the event's `reservationMinutes` plus 15 from the hold's creation: checking out late in a hold leaves less time, and no checkout keeps the tickets longer. When Stripe reports it paid, the tickets are issued, the order becomes `active` and the confirmation is mailed; a declined card leaves the order awaiting payment (confirm again with the same client secret, or call this again: it answers the same order and payment, the PaymentIntent stored on the order, however late). If the reservation lapses or is released before the payment, the order becomes `expired` and its PaymentIntent is cancelled; a payment that succeeded anyway takes the tickets if they are still on sale, else is refunded in full and the buyer mailed why. A free order (total 0) is paid at once: `status: \"pending\"`, `payment: null`, its tickets issued behind the answer as a paid order's are (the order becomes `active` and the confirmation is mailed; GET /my-account/orders shows it). Only a held reservation checks out: 409 `reservation_not_held` (with its `status`); Stripe refusing the amount (below its minimum once converted into the account's settlement currency, for a currency its table does not list: the hold checked the rest) is 409 `amount_below_minimum` / `amount_above_maximum` with Stripe's `processorCode`; another customer's is 404. `Idempotency-Key` answers a retry as the first time.",
    ),
    conflicts: [
      'reservation_not_held',
      'payments_unavailable',
      'amount_below_minimum',
      'amount_above_maximum',
      'concurrent_update',
    ],
    example: { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
  },
} satisfies Entries;
