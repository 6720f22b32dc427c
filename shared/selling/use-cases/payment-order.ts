import { getOrder } from '../data/orders.ts';
import { isOrderPayment } from '../domain/order-payment.ts';
import type { Order } from '../domain/order.ts';
import { paymentMetadata } from '../services/payments.ts';

/**
 * The order a PaymentIntent paid, for what Stripe reports after the payment (a refund, a dispute, a refund that
 * failed): the order its `orderId` metadata names (the object's own where it carries it, else read from the
 * PaymentIntent), only when that intent is the order's own payment (order-payment.ts `isOrderPayment`). A payment
 * that named an order without paying it (refunded as unmatched) is none of that order's money.
 */
export async function orderOfPayment(
  paymentIntent: string | null,
  metadata: Record<string, string> | null = null,
): Promise<Order | undefined> {
  if (!paymentIntent) return undefined;
  const named = metadata?.orderId ? metadata : await paymentMetadata(paymentIntent);
  const orderId = Number(named.orderId);
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return undefined;
  const order = await getOrder(orderId);
  return order && isOrderPayment(order, paymentIntent) ? order : undefined;
}
