import { recordDispute } from '../data/order-disputes.ts';
import { disputeSequence, type OrderDispute } from '../domain/order-dispute.ts';
import { logger } from '../../logger.ts';
import { toMajor } from '../../money.ts';
import { recordPaymentDisputed } from '../../services/metrics.ts';
import { orderOfPayment } from './payment-order.ts';

/**
 * `charge.dispute.created`, `.updated`, `.closed`: the dispute kept on the order the disputed payment paid
 * (shared/README.md "Refunds"; payment-order.ts). Each event is taken at most once and never steps the
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

export async function followStripeDispute(
  dispute: StripeDispute,
  event: { id: string; type: string; created: number },
): Promise<void> {
  const order = await orderOfPayment(dispute.paymentIntent);
  if (!order) {
    logger.warn("Stripe dispute of no order's payment acknowledged", { eventId: event.id, disputeId: dispute.id });
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
    logger.info('Stripe dispute event older than the order holds: nothing changed', {
      eventId: event.id,
      orderId: order.id,
    });
    return;
  }
  const details = {
    eventId: event.id,
    orderId: order.id,
    disputeId: dispute.id,
    status: dispute.status,
    reason: dispute.reason,
  };
  if (event.type !== 'charge.dispute.created') {
    logger.info('Stripe dispute recorded', details);
    return;
  }
  // Staff have days, not weeks, to answer a dispute in Stripe's dashboard: this alerts.
  logger.error('Payment disputed', details);
  recordPaymentDisputed(dispute.reason);
}
