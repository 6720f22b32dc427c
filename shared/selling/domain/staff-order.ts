import * as z from '../../schema.ts';
import { ReservationAmountsResource } from './sale-prices.ts';
import { OrderDisputeResource, RefundFailureResource } from './order-dispute.ts';
import { PaymentProblemResource } from './order-payment.ts';
import { BillingResource } from './checkout-body.ts';
import {
  ORDER_STATUSES,
  ORDER_TICKET_STATUSES,
  OrderCancellationResource,
  OrderShippingResource,
  OrderTransactionResource,
} from './order.ts';

/**
 * An order as the staff's routes answer it (`GET /orders`, `GET /orders/{id}`, a sale, a cancel): the schema the
 * routes declare and the type inferred from it, which `toStaffOrder` (order-cancel.ts) builds. The rules import
 * only the type, so the bundles that build no answer (the Stripe webhook's) do not build the schema.
 */

const StaffOrderTicketResource = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    status: z.enum(ORDER_TICKET_STATUSES),
    typeId: z.int(),
    name: z.string(),
    price: z
      .number()
      .check(z.describe('Net of tax, after any discount: `price` + `taxAmount` is what the ticket cost.')),
    taxAmount: z.number(),
    barcode: z.string(),
  }),
);
export type StaffOrderTicket = z.output<typeof StaffOrderTicketResource>;

/** `GET /orders/{id}` and the list's entries: the order with its amounts, customer, payment and history. */
export const StaffOrderResource = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    eventId: z.int(),
    status: z.enum(ORDER_STATUSES),
    created: z.iso.datetime(),
    purchasedDate: z.iso.datetime(),
    customer: z.strictObject({
      id: z.int(),
      emailAddress: z.string(),
      purchaser: z.string(),
      name: z.optional(z.string()),
    }),
    billing: z.optional(BillingResource),
    grandTotal: z.number(),
    amounts: z
      .optional(ReservationAmountsResource)
      .check(z.describe('The sale as priced (absent on an order seeded whole): `total` is `grandTotal`.')),
    promoCode: z
      .optional(z.string())
      .check(z.describe('The promo code the order was priced with, as its event spells it; absent when none.')),
    payment: z.strictObject({
      paid: z.number(),
      transactions: z.array(OrderTransactionResource),
      problems: z.optional(z.array(PaymentProblemResource)),
    }),
    affiliate: z.nullable(z.string()),
    waveTimeId: z.nullable(z.int()),
    teamId: z.nullable(z.int()),
    shipping: z.optional(OrderShippingResource),
    ticketIds: z.array(z.string()),
    tickets: z
      .optional(z.array(StaffOrderTicketResource))
      .check(z.describe('On `GET /orders/{id}` and the cancel answer.')),
    dispute: z
      .optional(OrderDisputeResource)
      .check(
        z.describe(
          "The card payment's dispute (a chargeback, or an inquiry: `warning_*`) as Stripe last reported it; absent when none.",
        ),
      ),
    refundFailures: z
      .optional(z.array(RefundFailureResource))
      .check(
        z.describe(
          'Refunds Stripe reported failed after they were recorded (a closed card): the buyer did not get `amount` back. Each is also a positive transaction `<refund id>-failed`.',
        ),
      ),
    cancellation: z
      .optional(OrderCancellationResource)
      .check(z.describe('Set when a cancellation starts; `outcome` is the status it ends in.')),
    history: z.array(
      z.strictObject({
        at: z.iso.datetime(),
        by: z.string(),
        action: z.enum(['created', 'cancel_started', 'cancelled', 'refunded', 'expired', 'tickets_cancelled']),
        force: z.optional(z.boolean()),
        ticketIds: z.optional(z.array(z.string())).check(z.describe('`tickets_cancelled`: the part cancelled.')),
      }),
    ),
  }),
);
export type StaffOrder = z.output<typeof StaffOrderResource>;
