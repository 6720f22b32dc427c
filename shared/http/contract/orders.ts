/** The contract of the staff's order routes (`functions/orders/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { ORDER_STATUSES, ORDER_TICKET_STATUSES } from '../../domain/order.ts';
import { DISPUTE_FILTERS } from '../../domain/order-dispute.ts';
import type { StaffOrder } from '../../domain/order-cancel.ts';
import { PAYMENT_MISMATCHES } from '../../domain/order-payment.ts';
import { EMAIL_MAX_LENGTH } from '../../domain/customer.ts';
import { MAX_DIGITS, wholeNumber } from '../paging.ts';
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

/** More ticket ids than any order holds (a box-office sale or a reservation: 10; a seeded order up to 50) is a 400. */
export const MAX_PART_TICKETS = 50;

/** A ticket's id as the answers give it (a string), or as a number. */
const TicketIdField = z.pipe(
  z.union([
    z
      .string()
      .check(
        z.maxLength(MAX_DIGITS, { message: 'must be a ticket id', abort: true }),
        z.regex(/^[1-9]\d*$/, 'must be a ticket id'),
      ),
    z.int('must be a ticket id').check(z.positive('must be a ticket id')),
  ]),
  z.transform((value: string | number) => Number(value)),
);

/**
 * `POST /orders/{id}/cancel`: `force` cancels checked-in tickets too (recorded in their history); `ticketIds` cancels
 * only those tickets of the order (each once), refunding their share.
 */
export const CancelOrderBody = z.strictObject({
  force: z.optional(z.boolean('force must be true or false')),
  ticketIds: z.optional(
    z
      .array(TicketIdField)
      .check(
        z.minLength(1, 'ticketIds must name at least one ticket'),
        z.maxLength(MAX_PART_TICKETS, `ticketIds must name at most ${MAX_PART_TICKETS} tickets`),
        z.refine((ids: number[]) => new Set(ids).size === ids.length, 'ticketIds must name each ticket once'),
      )
      .check(
        z.describe(
          'Part of the order: these of its tickets (its `ticketIds`) are cancelled and their prices refunded (not the shipping); the order stays `active` with the rest, and ends as a whole cancel once none is left. A ticket not of the order is a 400.',
        ),
      ),
  ),
});

const Transaction = z.strictObject({
  amount: z.number(),
  processor: z.string(),
  reference: z.string(),
  time: z.iso.datetime(),
});

/** A payment that named the order but did not pay it (shared/domain/order-payment.ts), refunded. */
const PaymentProblemResource = z.strictObject({
  intentId: z.string(),
  reason: z.enum(PAYMENT_MISMATCHES),
  amount: z.number(),
  currency: z.string(),
  at: z.iso.datetime(),
  refundId: z.nullable(z.string()),
  refundRefused: z.optional(z.string()),
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
  payment: z.strictObject({
    paid: z.number(),
    transactions: z.array(Transaction),
    problems: z.optional(z.array(PaymentProblemResource)),
  }),
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
      action: z.enum(['created', 'cancel_started', 'cancelled', 'refunded', 'expired', 'tickets_cancelled']),
      force: z.optional(z.boolean()),
      ticketIds: z.optional(z.array(z.string())).check(z.describe('`tickets_cancelled`: the part cancelled.')),
    }),
  ),
});

true satisfies z.Same<keyof z.output<typeof StaffOrderResource>, keyof StaffOrder>;
