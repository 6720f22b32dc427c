import { recordDispute } from '../../data/order-disputes.ts';
import { getOrder } from '../../data/orders.ts';
import { disputeSequence, type OrderDispute } from '../../domain/order-dispute.ts';
import { logger } from '../../logger.ts';
import { toMajor } from '../../money.ts';
import { recordPaymentDisputed } from '../../services/metrics.ts';
import { paymentMetadata } from '../../services/payments.ts';

/**
 * `charge.dispute.created`, `.updated`, `.closed`: the dispute kept on its order (shared/README.md "Refunds"),
 * found through the disputed PaymentIntent's `orderId`. Each event is taken at most once and never steps the
 * dispute back (order-dispute.ts `disputeSequence`); a dispute of no order of ours is acknowledged and logged.
 */

/** A Stripe dispute as its events carry it; `amount` in the currency's minor unit. */
export interface StripeDispute {
  id: string;
  status: string;
  reason: string;
  amount: number;
  currency: string;
  paymentIntent: string | null;
}

/** The order a PaymentIntent paid (its `orderId` metadata); undefined when it names none. */
export async function orderIdOfPayment(paymentIntent: string | null): Promise<number | undefined> {
  if (!paymentIntent) return undefined;
  const orderId = Number((await paymentMetadata(paymentIntent)).orderId);
  return Number.isSafeInteger(orderId) && orderId > 0 ? orderId : undefined;
}

export async function followStripeDispute(
  dispute: StripeDispute,
  event: { id: string; type: string; created: number },
): Promise<void> {
  const orderId = await orderIdOfPayment(dispute.paymentIntent);
  const order = orderId === undefined ? undefined : await getOrder(orderId);
  if (!order) {
    logger.warn('Stripe dispute of no order acknowledged', { eventId: event.id, disputeId: dispute.id, orderId });
    return;
  }
  const kept: OrderDispute = {
    id: dispute.id,
    status: dispute.status,
    reason: dispute.reason,
    amount: toMajor(dispute.amount, dispute.currency),
    currency: dispute.currency.toUpperCase(),
    updatedAt: new Date(event.created * 1000).toISOString(),
  };
  if (!(await recordDispute(order, kept, disputeSequence(event.created, dispute.status)))) {
    logger.info('Stripe dispute event older than the order holds: nothing changed', { eventId: event.id, orderId });
    return;
  }
  const details = { eventId: event.id, orderId, disputeId: dispute.id, status: dispute.status, reason: dispute.reason };
  if (event.type !== 'charge.dispute.created') {
    logger.info('Stripe dispute recorded', details);
    return;
  }
  // Staff have days, not weeks, to answer a dispute in Stripe's dashboard: this alerts.
  logger.error('Payment disputed', details);
  recordPaymentDisputed(dispute.reason);
}
