import { now } from '../../clock.ts';
import { moveOrder } from '../data/order-lists.ts';
import { getOrder } from '../data/orders.ts';
import type { Order, OrderTransaction } from '../domain/order.ts';

/**
 * A checkout's payment recorded on its order, once: what the Stripe webhook does before it answers. Issuing the
 * order's tickets comes after, behind the webhook (checkout-payment.ts), so the webhook's path reaches no ticket
 * writer.
 */

/** The payment that paid an order, as Stripe reported it (none for a free order). */
export interface Payment {
  intentId: string;
  /** In the currency's major unit, as the order records it (from Stripe's unit where it is read: stripe-events.ts). */
  amount: number;
}

/**
 * The payment recorded once: the order moves `awaiting_payment` (or `expired`: its reservation lapsed or was released
 * first) → `pending` conditionally, with the payment as a transaction and `issuedTickets` started, so a second or
 * late delivery finds it moved and changes nothing. The status the order is in after it (`pending`: claimed now or
 * before; `cancelled` or `refunded`: staff closed it first, the caller refunds the payment). Entering `pending` is
 * what the issuing consumer's stream filter passes (shared/selling/data/paid-order-filter.ts).
 */
export async function claimPayment(orderId: number, payment: Payment | null): Promise<Order['status'] | undefined> {
  return (await claim(orderId, payment)).status;
}

/** The claim, and the order as it left it when that is `pending` (claimed now or before). */
export async function claim(
  orderId: number,
  payment: Payment | null,
): Promise<{ order?: Order; status?: Order['status'] }> {
  const order = await getOrder(orderId);
  if (!order?.checkout) return { status: order?.status };
  if (order.status === 'pending') return { order, status: order.status };
  if (order.status !== 'awaiting_payment' && order.status !== 'expired') return { status: order.status };
  const paid: OrderTransaction[] = payment
    ? [{ amount: payment.amount, processor: 'stripe', reference: payment.intentId, time: now().toISOString() }]
    : [];
  const claimed = await moveOrder(order, 'pending', { transactions: paid, set: { issuedTickets: {} } });
  // Another call claimed it first: that call issues.
  return claimed ? { order: claimed, status: claimed.status } : { status: (await getOrder(orderId))?.status };
}
