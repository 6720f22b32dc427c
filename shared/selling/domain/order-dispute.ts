import * as z from '../../schema.ts';

/**
 * Disputes and failed refunds of an order's card payment, as Stripe reports them (shared/README.md "Refunds"). Pure.
 *
 * A dispute (a chargeback, or an inquiry before one: `warning_*`) is kept on the order as Stripe last described it.
 * Stripe sends its events at least once and in any order, so each carries a `sequence`, its event's `created`
 * second then how far on its status is; the order takes an event only with a higher one than it holds, so a repeat
 * or an older event changes nothing.
 */

/** Stripe's dispute statuses in the order a dispute goes through them (an inquiry may become a chargeback). */
export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'prevented',
  'won',
  'lost',
] as const;

/** Statuses after which nothing more happens to the dispute. */
const CLOSED_STATUSES: readonly string[] = ['warning_closed', 'prevented', 'won', 'lost'];

/** The order's dispute, as staff see it on `GET /orders/{id}`; `amount` in the currency's major unit. */
export const OrderDisputeResource = z.lazy(() =>
  z.strictObject({
    /** Stripe's `dp_…`. */
    id: z.string(),
    /** Stripe's status (`needs_response`, `under_review`, `won`, `lost`, `warning_*`…). */
    status: z.string(),
    /** Stripe's reason (`fraudulent`, `product_not_received`…). */
    reason: z.string(),
    amount: z.number(),
    /** ISO 4217, upper case. */
    currency: z.string(),
    /** The time of the Stripe event that last changed it. */
    updatedAt: z.iso.datetime(),
  }),
);
export type OrderDispute = z.output<typeof OrderDisputeResource>;

/** The two lists `GET /orders?dispute=` reads: disputes still running, and those decided. */
export const DISPUTE_FILTERS = ['open', 'closed'] as const;
export type DisputeFilter = (typeof DISPUTE_FILTERS)[number];

export const disputeState = (status: string): DisputeFilter => (CLOSED_STATUSES.includes(status) ? 'closed' : 'open');

/**
 * A chargeback (not an inquiry, `warning_*`): the card's bank took the money back, and Stripe refuses to refund the
 * charge (`charge_disputed`), so a cancellation refunds nothing itself.
 */
export const isChargeback = (dispute: Pick<OrderDispute, 'status'> | undefined): boolean =>
  dispute !== undefined && !dispute.status.startsWith('warning_');

/** Where an event stands among the dispute's events: its second first, then its status (unknown ones lowest). */
export function disputeSequence(eventCreated: number, status: string): number {
  const rank = DISPUTE_STATUSES.indexOf(status as (typeof DISPUTE_STATUSES)[number]) + 1;
  return eventCreated * 16 + rank;
}

/**
 * A refund Stripe reported failed (`refund.failed`: a closed card), recorded as a transaction that takes the refund
 * back: positive, the refund's amount, reference `<refund id>-failed`. The order's transactions are only appended
 * to, so the refund stays and this entry beside it makes the sum right again.
 */
export const FAILED_REFUND_SUFFIX = '-failed';

export const failedRefundReference = (refundId: string): string => `${refundId}${FAILED_REFUND_SUFFIX}`;

/** A refund of the order that failed after it was recorded: what staff see in `refundFailures`. */
export const RefundFailureResource = z.lazy(() =>
  z.strictObject({
    refundId: z.string(),
    /** Positive, in the currency's major unit: what the buyer did not get back. */
    amount: z.number(),
    /** When Stripe reported it. */
    at: z.iso.datetime(),
  }),
);
export type RefundFailure = z.output<typeof RefundFailureResource>;

export function refundFailures(order: {
  transactions: readonly { amount: number; reference: string; time: string }[];
}): RefundFailure[] {
  return order.transactions.flatMap((transaction) =>
    transaction.reference.endsWith(FAILED_REFUND_SUFFIX) && transaction.amount > 0
      ? [
          {
            refundId: transaction.reference.slice(0, -FAILED_REFUND_SUFFIX.length),
            amount: transaction.amount,
            at: transaction.time,
          },
        ]
      : [],
  );
}
