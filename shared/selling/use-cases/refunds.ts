import { addTransactions } from '../data/order-lists.ts';
import { getOrder } from '../data/orders.ts';
import { isClosed } from '../domain/order-cancel.ts';
import type { OrderTransaction } from '../domain/order.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { listRefunds, refundPayment, type StripeRefund } from '../services/payments.ts';
import { fromStripeAmount, toMajor, toStripeAmount } from '../../money.ts';
import { orderOfPayment } from './payment-order.ts';

/**
 * Stripe refunds on orders (shared/README.md "Refunds"): the one way the service refunds a payment (a cancel
 * by staff, a payment whose reservation's tickets were gone) and the record of every refund Stripe reports
 * (`charge.refunded`, also for refunds made in Stripe's dashboard). A refund is on the order as a negative
 * transaction whose `reference` is the refund's id, recorded once however many paths report it.
 */

/** Stripe's idempotency key of an order's refund: every path and every retry asks for the one refund. */
export const refundKey = (orderId: number): string => `order-${orderId}-refund`;

/** A refund that took (or will: `pending`) money back; `failed` and `canceled` ones did not. */
const returnsMoney = (refund: StripeRefund): boolean => refund.status !== 'failed' && refund.status !== 'canceled';

/** A Stripe refund as the order's transaction: negative, in the currency's major unit, at Stripe's time. */
export const refundTransaction = (refund: StripeRefund): OrderTransaction => ({
  amount: -toMajor(fromStripeAmount(refund.amount, refund.currency), refund.currency),
  processor: 'stripe',
  reference: refund.id,
  time: new Date(refund.created * 1000).toISOString(),
});

/**
 * Refunds an order's PaymentIntent in full through Stripe, keyed by the order, and answers the refunds as
 * transactions (not yet recorded: the caller records them with its own write).
 */
export async function refundStripePayment(orderId: number, paymentIntentId: string): Promise<OrderTransaction[]> {
  return (await refundInFull(paymentIntentId, refundKey(orderId))).map(refundTransaction);
}

/**
 * Refunds a succeeded payment that paid no order (shared/README.md "Payments"), keyed by the PaymentIntent, so every
 * delivery of its event asks for the one refund.
 */
export const refundUnmatchedPayment = (paymentIntentId: string): Promise<StripeRefund[]> =>
  refundInFull(paymentIntentId, `payment-${paymentIntentId}-refund`);

/**
 * A PaymentIntent refunded in full under the caller's key. A payment Stripe says is refunded already (in its
 * dashboard, or by a call whose key Stripe forgot after 24 hours) answers the refunds Stripe holds, so nothing is
 * refunded twice.
 */
async function refundInFull(paymentIntentId: string, idempotencyKey: string): Promise<StripeRefund[]> {
  try {
    return [await refundPayment(paymentIntentId, idempotencyKey)];
  } catch (error) {
    if (!(error instanceof Conflict) || error.details.processorCode !== 'charge_already_refunded') throw error;
    const refunds = (await listRefunds({ paymentIntent: paymentIntentId })).filter(returnsMoney);
    if (!refunds.length) throw error;
    return refunds;
  }
}

/**
 * Refunds `minor` (the currency's minor units) of an order's PaymentIntent for one part of it (`part`: the part's name, also its
 * idempotency key), answered as the transaction (not yet recorded). The part's name is on Stripe's refund
 * (`metadata.part`), so a retry after Stripe forgot the key (24 hours) finds the refund it made instead of a second.
 */
export async function refundStripePart(
  paymentIntentId: string,
  part: string,
  minor: number,
  currency: string,
): Promise<OrderTransaction> {
  const amount = toStripeAmount(minor, currency);
  const made = (await listRefunds({ paymentIntent: paymentIntentId })).find(
    (refund) => refund.metadata.part === part && returnsMoney(refund),
  );
  return refundTransaction(made ?? (await refundPayment(paymentIntentId, part, { amount, metadata: { part } })));
}

/**
 * A payment Stripe took for an order that was closed meanwhile (staff cancelled it while it awaited payment, and the
 * buyer paid after): nothing is issued, the payment is refunded in full, and both are recorded on the order. A
 * repeat, or a payment the order already holds (refunded by the cancel or by the lapse), changes nothing. The
 * payment's `amount` is in major units, as the order records it.
 */
export async function refundPaymentOfClosedOrder(
  orderId: number,
  payment: { intentId: string; amount: number; time: string },
): Promise<void> {
  const order = await getOrder(orderId);
  if (!order || !isClosed(order)) return;
  if (order.transactions.some((transaction) => transaction.reference === payment.intentId)) return;
  const refunds = await refundStripePayment(orderId, payment.intentId);
  const paid: OrderTransaction = {
    amount: payment.amount,
    processor: 'stripe',
    reference: payment.intentId,
    time: payment.time,
  };
  await addTransactions(orderId, [paid, ...refunds]);
  logger.warn('Payment of a closed order refunded', { orderId, intentId: payment.intentId });
}

export interface RefundedCharge {
  id: string;
  paymentIntent: string | null;
  metadata: Record<string, string> | null;
}

/**
 * `charge.refunded`: the charge's refunds recorded on the order its payment paid (payment-order.ts; a charge carries
 * the PaymentIntent's metadata), each once: a refund the service made
 * itself is already there by its id. Information only: no ticket is cancelled and the status stays (staff
 * cancel with `POST /orders/{id}/cancel`, which then refunds nothing more: README "Refunds").
 */
export async function recordChargeRefunds(charge: RefundedCharge, eventId: string): Promise<void> {
  // The refund of a payment that named an order without paying it (refundUnmatchedPayment) is no order's money.
  const order = await orderOfPayment(charge.paymentIntent, charge.metadata);
  if (!order) {
    logger.info("Stripe refund of no order's payment acknowledged", { eventId, chargeId: charge.id });
    return;
  }
  const refunds = (await listRefunds({ charge: charge.id })).filter(returnsMoney);
  await addTransactions(order.id, refunds.map(refundTransaction));
  logger.info('Stripe refund recorded', { eventId, orderId: order.id, refunds: refunds.map((refund) => refund.id) });
}
