import { getOrder, recordPaymentIntent } from '../data/orders.ts';
import { orderStripeAmount } from '../domain/order-payment.ts';
import type { Order } from '../domain/order.ts';
import type { Reservation } from '../domain/reservation.ts';
import { NotFound } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { cancelPaymentIntent, createPaymentIntent, paymentClientSecret } from '../services/payments.ts';

/**
 * A new checkout order's PaymentIntent, created before the order is written (idempotency key `order-<id>-payment`)
 * so that its id is stored in the order's creation (`checkout.paymentIntentId`) and not by a write of its own: a retry
 * of the checkout (a declined card, a lost answer) reads the stored id and answers the same intent, however late
 * (Stripe keeps an idempotency key only 24 hours), and never creates a second. The stored id is also the one payment
 * that pays the order (the webhook).
 */
export function createCheckoutPaymentIntent(order: Order): Promise<{ id: string; clientSecret: string }> {
  return createPaymentIntent(
    {
      orderId: order.id,
      reservationId: order.checkout!.reservationId,
      amount: orderStripeAmount(order),
      currency: order.checkout!.currency,
      customerEmail: order.emailAddress,
    },
    `order-${order.id}-payment`,
  );
}

/**
 * A checkout order's PaymentIntent and its client secret: the one its creation stored. An order stored without one
 * gets it now, stored once (the first of two racing calls decides).
 */
export async function checkoutPaymentIntent(order: Order): Promise<{ id: string; clientSecret: string }> {
  const stored = order.checkout!.paymentIntentId;
  if (stored) return { id: stored, clientSecret: await paymentClientSecret(stored) };
  const created = await createCheckoutPaymentIntent(order);
  const kept = await recordPaymentIntent(order.id, created.id);
  if (!kept) throw new NotFound('Order', order.id);
  // Another call of the checkout stored first (the same key: the same intent, unless Stripe had forgotten it).
  return kept === created.id ? created : { id: kept, clientSecret: await paymentClientSecret(kept) };
}

/**
 * After a lapse or a release closed a checkout's order (`expired`, shared/selling/data/reservations.ts `releaseHold`), its
 * PaymentIntent is cancelled at Stripe (idempotency key `order-<id>-cancel`), so the buyer's page cannot pay it any
 * more. Best effort, after the commit: a payment that succeeded first (Stripe refuses to cancel it), or one that gets
 * through because this call failed, reaches the webhook, which takes the tickets again if they are there or refunds
 * it (checkout-payment.ts). The intent is the one stored on the order; a free order has none.
 */
export async function cancelCheckoutPayment(reservation: Pick<Reservation, 'orderId'>): Promise<void> {
  if (!reservation.orderId) return;
  const order = await getOrder(reservation.orderId);
  if (order?.status !== 'expired' || !order.checkout?.paymentIntentId) return;
  try {
    const outcome = await cancelOrderPayment(order);
    logger.info('Expired order payment cancelled at Stripe', { orderId: order.id, outcome });
  } catch (error) {
    logger.warn('Expired order payment not cancelled at Stripe', { orderId: order.id, error: error as Error });
  }
}

/**
 * Cancels a checkout order's PaymentIntent at Stripe (`abandoned`, idempotency key `order-<id>-cancel`), so the buyer's
 * page cannot pay it any more: `not_cancelable` when it succeeded (or was cancelled) first, `none` without a stored
 * PaymentIntent (a free order; or a checkout whose intent is not stored yet: a payment of it reaches the closed order
 * and is refunded, refunds.ts). Stripe not answering throws (the 503 of selling/services/payments.ts).
 */
export async function cancelOrderPayment(order: Order): Promise<'canceled' | 'not_cancelable' | 'none'> {
  const intentId = order.checkout?.paymentIntentId;
  if (!intentId) return 'none';
  return cancelPaymentIntent(intentId, `order-${order.id}-cancel`);
}
