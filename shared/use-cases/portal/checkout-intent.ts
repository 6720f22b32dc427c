import { getOrder } from '../../data/orders.ts';
import type { Order } from '../../domain/order.ts';
import type { Reservation } from '../../domain/reservation.ts';
import { logger } from '../../logger.ts';
import { cancelPaymentIntent, createPaymentIntent } from '../../services/payments.ts';

/** An order's amount in the currency's minor unit, as Stripe counts it. */
export const cents = (amount: number) => Math.round(amount * 100);

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
      amount: cents(order.grandTotal),
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
  if (order?.status !== 'expired' || !order.checkout || cents(order.grandTotal) === 0) return;
  try {
    const outcome = await cancelOrderPayment(order);
    logger.info('Expired order payment cancelled at Stripe', { orderId: order.id, outcome });
  } catch (error) {
    logger.warn('Expired order payment not cancelled at Stripe', { orderId: order.id, error: error as Error });
  }
}

/**
 * Cancels a checkout order's PaymentIntent at Stripe (`abandoned`, idempotency key `order-<id>-cancel`), so the buyer's
 * page cannot pay it any more: `not_cancelable` when it succeeded (or was cancelled) first, `none` for a free order
 * (no PaymentIntent). Stripe not answering throws (the 503 of services/payments.ts).
 */
export async function cancelOrderPayment(order: Order): Promise<'canceled' | 'not_cancelable' | 'none'> {
  if (!order.checkout || cents(order.grandTotal) === 0) return 'none';
  const intent = await orderPaymentIntent(order);
  return cancelPaymentIntent(intent.id, `order-${order.id}-cancel`);
}
