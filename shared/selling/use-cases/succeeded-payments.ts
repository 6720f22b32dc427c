import { addPaymentProblem } from '../data/order-lists.ts';
import { getOrder } from '../data/orders.ts';
import { paidAmount, type PaymentMismatch, paymentMismatch, type SucceededPayment } from '../domain/order-payment.ts';
import type { Order } from '../domain/order.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { recordUnmatchedPayment } from '../../services/metrics.ts';
import { claimPayment } from './payment-claim.ts';
import { refundPaymentOfClosedOrder, refundUnmatchedPayment } from './refunds.ts';

/** A succeeded PaymentIntent as its event carries it: the payment, the order it names, and when it succeeded. */
export interface SucceededIntent extends SucceededPayment {
  /** `metadata.orderId`: which order the intent says it pays, a hint the order's stored intent confirms or not. */
  orderHint: number | null;
  /** ISO-8601 UTC. */
  at: string;
}

/**
 * `payment_intent.succeeded` (shared/README.md "Payments"): the order the intent names pays only when the intent is
 * the one its checkout stored, for the order's amount in its currency (order-payment.ts). Then the payment is recorded
 * on the order once (payment-claim.ts `claimPayment`: `pending`) and the event answered; its tickets are issued
 * behind the answer by the table stream's consumer (issue-paid-orders.ts), so the public webhook holds a function for
 * a read and one transaction, not a whole order's issue. Refunded when staff closed the order meanwhile. Any other succeeded payment pays no
 * order: it is refunded in full, recorded on the order it named (if any), logged as an error and counted
 * (`PaymentUnmatched`, which alarms), so every payment is one order or one refund.
 */
export async function applySucceededPayment(intent: SucceededIntent, eventId: string): Promise<void> {
  const order = intent.orderHint === null ? undefined : await getOrder(intent.orderHint);
  const mismatch = paymentMismatch(order, intent);
  if (mismatch || !order) return refundUnmatched(intent, mismatch ?? 'no_order', eventId, order);
  const payment = { intentId: intent.intentId, amount: paidAmount(intent) };
  const status = await claimPayment(order.id, payment);
  // Paid after staff cancelled it (refunds.ts): refunded, never kept without tickets.
  if (status === 'cancelled' || status === 'refunded')
    await refundPaymentOfClosedOrder(order.id, { ...payment, time: intent.at });
  logger.info('Stripe payment applied', { eventId, orderId: order.id, status });
}

async function refundUnmatched(
  intent: SucceededIntent,
  reason: PaymentMismatch,
  eventId: string,
  order: Order | undefined,
): Promise<void> {
  const refund = await refundOrRefusal(intent.intentId);
  logger.error('Stripe payment paid no order', {
    eventId,
    intentId: intent.intentId,
    orderId: intent.orderHint,
    reason,
    ...refund,
  });
  recordUnmatchedPayment(reason);
  if (!order) return;
  await addPaymentProblem(order.id, {
    intentId: intent.intentId,
    reason,
    amount: paidAmount(intent),
    currency: intent.currency.toUpperCase(),
    at: intent.at,
    ...refund,
  });
}

/**
 * The unmatched payment's refund, or Stripe's refusal of it (a 4xx: disputed, or no such payment): retrying the
 * event cannot change that, so it is recorded and alarmed for staff, and the event acknowledged. Stripe not
 * answering throws (the webhook answers 503 and Stripe delivers again).
 */
async function refundOrRefusal(intentId: string): Promise<{ refundId: string | null; refundRefused?: string }> {
  try {
    const [refund] = await refundUnmatchedPayment(intentId);
    return { refundId: refund!.id };
  } catch (error) {
    if (!(error instanceof Conflict) || error.reason !== 'refund_refused') throw error;
    return { refundId: null, refundRefused: String(error.details.processorCode ?? 'refused') };
  }
}
