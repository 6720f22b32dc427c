import { getOrder } from '../../data/orders.ts';
import type { Order } from '../../domain/order.ts';
import type { Reservation } from '../../domain/reservation.ts';
import { logger } from '../../logger.ts';
import { cancelPaymentIntent, createPaymentIntent } from '../../services/payments.ts';
import { toMinor, toStripeAmount } from '../../money.ts';

/** A checkout order's total as Stripe's `amount` (its unit for the currency: shared/money.ts). */
export const stripeAmountOf = (order: Order): number =>
  toStripeAmount(toMinor(order.grandTotal, order.checkout!.currency), order.checkout!.currency);

/**
 * A checkout order's PaymentIntent: created by the checkout's first answer, the same one on every later call
 * (the order's idempotency key and the same parameters, which Stripe answers with the intent it made, for 24 hours:
 * longer than any reservation is kept).
 */
export const orderPaymentIntent = (order: Order) =>
  createPaymentIntent(
    {
      orderId: order.id,
      reservationId: order.checkout!.reservationId,
      amount: stripeAmountOf(order),
      currency: order.checkout!.currency,
      customerEmail: order.emailAddress,
    },
    `order-${order.id}-payment`,
  );

/**
 * After a lapse or a release closed a checkout's order (`expired`, shared/data/reservations.ts `releaseHold`), its
 * PaymentIntent is cancelled at Stripe (idempotency key `order-<id>-cancel`), so the buyer's page cannot pay it any
 * more. Best effort, after the commit: a payment that succeeded first (Stripe refuses to cancel it), or one that gets
 * through because this call failed, reaches the webhook, which takes the tickets again if they are there or refunds
 * it (checkout-payment.ts). A free order has no PaymentIntent.
 */
export async function cancelCheckoutPayment(reservation: Pick<Reservation, 'orderId'>): Promise<void> {
  if (!reservation.orderId) return;
  const order = await getOrder(reservation.orderId);
  if (order?.status !== 'expired' || !order.checkout || order.grandTotal === 0) return;
  try {
    const intent = await orderPaymentIntent(order);
    const outcome = await cancelPaymentIntent(intent.id, `order-${order.id}-cancel`);
    logger.info('Expired order payment cancelled at Stripe', { orderId: order.id, outcome });
  } catch (error) {
    logger.warn('Expired order payment not cancelled at Stripe', { orderId: order.id, error: error as Error });
  }
}
