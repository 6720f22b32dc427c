import type { Order } from './order.ts';
import { formatAmount } from '../../money.ts';

/**
 * The buyer's mail when their payment came after the reservation ended (it lapsed or they released it) and the
 * tickets were sold to someone else meanwhile: the payment is refunded in full (checkout-payment.ts). Plain
 * text, as order-cancel.ts's `orderCancelledMail`.
 */
export function latePaymentRefundedMail(
  order: Pick<Order, 'id' | 'purchaser' | 'purchasedDate' | 'checkout'>,
  event: { title: string },
  refunded: number,
): { subject: string; text: string } {
  const amount = formatAmount(refunded, order.checkout?.currency);
  return {
    subject: `Your payment for order ${order.id} was refunded`,
    text: [
      `Hello ${order.purchaser || 'there'},`,
      '',
      `Your payment for order ${order.id} (${event.title}, checked out ${order.purchasedDate.slice(0, 10)}) arrived after your reservation had ended, and its tickets had been sold meanwhile.`,
      `No ticket was issued. The payment of ${amount} is refunded in full to the way you paid; your bank may take a few days to show it.`,
      '',
      'You are welcome to reserve again while tickets are on sale.',
    ].join('\n'),
  };
}
