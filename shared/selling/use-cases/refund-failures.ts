import { appendTransactions } from '../data/order-lists.ts';
import { failedRefundReference } from '../domain/order-dispute.ts';
import type { OrderTransaction } from '../domain/order.ts';
import { logger } from '../../logger.ts';
import { recordRefundFailed } from '../../services/metrics.ts';
import type { StripeRefund } from '../services/payments.ts';
import { orderOfPayment } from './payment-order.ts';
import { refundTransaction } from './refunds.ts';

/**
 * `refund.updated`, `refund.failed`, `charge.refund.updated` (Stripe sends all three for one failure): a refund that
 * failed after it was made (a closed card) is corrected on its order (shared/README.md "Refunds"). The order's
 * transactions are only appended to, so the refund stays and a positive `<refund id>-failed` beside it takes it back;
 * a refund not recorded yet goes in with it (a late `charge.refunded` then finds it held), so the pair nets to zero
 * whichever arrives first. Staff are told once: an error log and the `RefundFailed` metric, and `refundFailures` on
 * `GET /orders/{id}`. A refund that did not fail changes nothing here (`charge.refunded` records it).
 */
export async function followStripeRefund(
  refund: StripeRefund & { failureReason: string | null },
  eventId: string,
): Promise<void> {
  if (refund.status !== 'failed' && refund.status !== 'canceled') return;
  const order = await orderOfPayment(refund.paymentIntent);
  const recorded = refundTransaction(refund);
  const correction: OrderTransaction = {
    ...recorded,
    amount: -recorded.amount,
    reference: failedRefundReference(refund.id),
  };
  const added = order && (await appendTransactions(order.id, [recorded, correction]));
  if (!order || !added) {
    logger.warn('Stripe refund failure of no order acknowledged', { eventId, refundId: refund.id });
    return;
  }
  if (!added.appended.some((transaction) => transaction.reference === correction.reference)) return;
  const reason = refund.failureReason ?? refund.status;
  logger.error('Refund failed: the buyer did not get the money back', {
    eventId,
    orderId: order.id,
    refundId: refund.id,
    reason,
  });
  recordRefundFailed(reason);
}
