/** The contract of the staff's order routes (`functions/orders/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { ORDER_STATUSES, ORDER_TICKET_STATUSES } from '../../domain/order.ts';
import { DISPUTE_FILTERS } from '../../domain/order-dispute.ts';
import type { StaffOrder } from '../../domain/order-cancel.ts';
import { EMAIL_MAX_LENGTH } from '../../domain/customer.ts';
import { wholeNumber } from '../paging.ts';
import { OrderShippingResource, ordered, portalPaging, purchaseBound } from './my-account.ts';

/** The disputed lists are kept per event and across events: `dispute` combines with `eventId` and a purchase range only. */
const disputeAlone = z.refine(
  (query: unknown) => {
    const { dispute, status, customerId, email } = query as Record<string, unknown>;
    return dispute === undefined || (status === undefined && customerId === undefined && email === undefined);
  },
  {
    message: 'dispute combines with eventId and a purchase range only, not status, customerId or email',
    path: ['dispute'],
  },
);

export const StaffOrderListQuery = z
  .strictObject({
    eventId: z.optional(wholeNumber('eventId', { positive: true })),
    status: z.optional(z.enum(ORDER_STATUSES, `status must be one of ${ORDER_STATUSES.join(', ')}`)),
    customerId: z.optional(wholeNumber('customerId', { positive: true })),
    email: z.optional(z.email('email must be an email address').check(z.maxLength(EMAIL_MAX_LENGTH))),
    fromPurchaseDate: purchaseBound('fromPurchaseDate', 'start'),
    toPurchaseDate: purchaseBound('toPurchaseDate', 'end'),
    dispute: z.optional(z.enum(DISPUTE_FILTERS, `dispute must be one of ${DISPUTE_FILTERS.join(', ')}`)),
    ...portalPaging,
  })
  .check(ordered('fromPurchaseDate', 'toPurchaseDate'), disputeAlone);

/** `POST /orders/{id}/cancel`: `force` cancels checked-in tickets too (recorded in their history). */
export const CancelOrderBody = z.strictObject({ force: z.optional(z.boolean('force must be true or false')) });

const Transaction = z.strictObject({
  amount: z.number(),
  processor: z.string(),
  reference: z.string(),
  time: z.iso.datetime(),
});

const StaffOrderTicket = z.strictObject({
  id: z.string(),
  status: z.enum(ORDER_TICKET_STATUSES),
  typeId: z.int(),
  name: z.string(),
  price: z.number(),
  barcode: z.string(),
});

const Cancellation = z.strictObject({
  at: z.iso.datetime(),
  by: z.string(),
  force: z.boolean(),
  outcome: z.enum(['cancelled', 'refunded']),
});

const Dispute = z.strictObject({
  id: z.string(),
  status: z.string(),
  reason: z.string(),
  amount: z.number(),
  currency: z.string(),
  updatedAt: z.iso.datetime(),
});

const RefundFailure = z.strictObject({ refundId: z.string(), amount: z.number(), at: z.iso.datetime() });

export const StaffOrderResource = z.strictObject({
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
  grandTotal: z.number(),
  payment: z.strictObject({ paid: z.number(), transactions: z.array(Transaction) }),
  affiliate: z.nullable(z.string()),
  waveTimeId: z.nullable(z.int()),
  teamId: z.nullable(z.int()),
  shipping: z.optional(OrderShippingResource),
  ticketIds: z.array(z.string()),
  tickets: z.optional(z.array(StaffOrderTicket)).check(z.describe('On `GET /orders/{id}` and the cancel answer.')),
  dispute: z
    .optional(Dispute)
    .check(
      z.describe(
        "The card payment's dispute (a chargeback, or an inquiry: `warning_*`) as Stripe last reported it; absent when none.",
      ),
    ),
  refundFailures: z
    .optional(z.array(RefundFailure))
    .check(
      z.describe(
        'Refunds Stripe reported failed after they were recorded (a closed card): the buyer did not get `amount` back. Each is also a positive transaction `<refund id>-failed`.',
      ),
    ),
  cancellation: z
    .optional(Cancellation)
    .check(z.describe('Set when a cancellation starts; `outcome` is the status it ends in.')),
  history: z.array(
    z.strictObject({
      at: z.iso.datetime(),
      by: z.string(),
      action: z.enum(['created', 'cancel_started', 'cancelled', 'refunded', 'expired']),
      force: z.optional(z.boolean()),
    }),
  ),
});

true satisfies z.Same<keyof z.output<typeof StaffOrderResource>, keyof StaffOrder>;
