import * as z from '../../schema.ts';
import { fromStripeAmount, toMajor, toMinor, toStripeAmount } from '../../money.ts';

/**
 * Which payment pays a checkout's order (shared/README.md "Payments"): only the PaymentIntent its checkout stored,
 * for the order's amount in the order's currency. Pure: the webhook asks, the use case acts.
 */

/** What of an order its payment is checked against (selling/domain/order.ts `Order`). */
interface PayableOrder {
  grandTotal: number;
  checkout?: { currency: string; paymentIntentId?: string };
}

/**
 * Why a succeeded payment pays no order: none named (or no such order), another intent than the one the order's
 * checkout stored, or an amount or currency other than the order's.
 */
export const PAYMENT_MISMATCHES = ['no_order', 'other_intent', 'amount', 'currency'] as const;
export type PaymentMismatch = (typeof PAYMENT_MISMATCHES)[number];

/** A succeeded PaymentIntent that named the order (its `metadata.orderId`) but did not pay it, and its refund. */
export const PaymentProblemResource = z.lazy(() =>
  z.strictObject({
    intentId: z.string(),
    reason: z.enum(PAYMENT_MISMATCHES),
    /** What Stripe took, in the intent's currency's major unit (as every stored amount). */
    amount: z.number(),
    /** ISO 4217, upper case. */
    currency: z.string(),
    /** When the payment succeeded (the event's time). */
    at: z.iso.datetime(),
    /** Stripe's refund of it; null when Stripe refused one (its `refundRefused` code: staff act by hand). */
    refundId: z.nullable(z.string()),
    refundRefused: z.optional(z.string()),
  }),
);
export type PaymentProblem = z.output<typeof PaymentProblemResource>;

/**
 * The order's total as Stripe is asked for it and reports it back, in Stripe's unit for the currency (money.ts). The
 * one place the PaymentIntent's amount is computed, for its creation and for the check of what succeeded, so the two
 * cannot differ.
 */
export const orderStripeAmount = (order: PayableOrder): number => {
  const currency = order.checkout!.currency;
  return toStripeAmount(toMinor(order.grandTotal, currency), currency);
};

/** What a succeeded payment took, in its currency's major unit (as every stored amount). */
export const paidAmount = (payment: SucceededPayment): number =>
  toMajor(fromStripeAmount(payment.amount, payment.currency), payment.currency);

/** A succeeded PaymentIntent as the webhook reads it: `amount` is what Stripe received, in Stripe's unit. */
export interface SucceededPayment {
  intentId: string;
  amount: number;
  currency: string;
}

/** Why the payment does not pay the order (none: it does). */
export function paymentMismatch(order: PayableOrder | undefined, payment: SucceededPayment): PaymentMismatch | null {
  if (!order?.checkout) return 'no_order';
  if (order.checkout.paymentIntentId !== payment.intentId) return 'other_intent';
  if (payment.currency.toUpperCase() !== order.checkout.currency.toUpperCase()) return 'currency';
  if (payment.amount !== orderStripeAmount(order)) return 'amount';
  return null;
}

/**
 * True when the PaymentIntent is the order's own payment: the one its checkout stored, or one recorded as paying
 * it. A refund of another intent that names the order (one refunded because it did not pay it) is not the order's.
 */
export const isOrderPayment = (
  order: Pick<PayableOrder, 'checkout'> & { transactions: { amount: number; processor: string; reference: string }[] },
  intentId: string,
): boolean =>
  order.checkout?.paymentIntentId === intentId ||
  order.transactions.some(
    (transaction) => transaction.processor === 'stripe' && transaction.amount > 0 && transaction.reference === intentId,
  );
