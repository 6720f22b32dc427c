import type Stripe from 'stripe';
import { logger } from '../../logger.ts';
import { verifyWebhook } from '../../services/payments.ts';
import { payOrder } from '../portal/checkout-payment.ts';
import { recordChargeRefunds, refundPaymentOfClosedOrder } from './refunds.ts';
import { followUpHandlers } from './stripe-follow-ups.ts';

/**
 * `POST /payments/stripe/webhook`: Stripe's events, verified first (signature over the raw body, 5 minutes'
 * tolerance, this stage's account and mode: shared/services/payments.ts), then handed to the handler of
 * their type. Stripe sends an event at least once, in any order and possibly late, so each handler must
 * change nothing twice and never step an order back. A type without a handler is acknowledged and logged:
 * Stripe stops sending what it is answered 2xx for, and an endpoint subscribed to more types does no harm.
 */
export type StripeEventHandler = (event: Stripe.Event) => Promise<void>;

/**
 * The events the service acts on, by type. The checkout plugs in here: `payment_intent.succeeded`
 * (the order paid, its tickets issued, or refunded when they are gone), `payment_intent.payment_failed`,
 * `charge.refunded` (its refunds recorded on the order: refunds.ts); the disputes and the refunds that fail later are
 * stripe-follow-ups.ts's.
 */
export const stripeEventHandlers: Partial<Record<Stripe.Event.Type, StripeEventHandler>> = {
  'payment_intent.succeeded': async (event) => {
    if (event.type !== 'payment_intent.succeeded') return;
    const intent = event.data.object;
    const orderId = Number(intent.metadata?.orderId);
    if (!Number.isSafeInteger(orderId) || orderId <= 0) {
      logger.warn('Stripe payment without an order acknowledged', { eventId: event.id, intentId: intent.id });
      return;
    }
    const payment = { intentId: intent.id, amount: intent.amount_received || intent.amount };
    const status = await payOrder(orderId, payment);
    // Paid after staff cancelled it (refunds.ts): refunded, never kept without tickets.
    if (status === 'cancelled' || status === 'refunded')
      await refundPaymentOfClosedOrder(orderId, { ...payment, time: new Date(event.created * 1000).toISOString() });
    logger.info('Stripe payment applied', { eventId: event.id, orderId, status });
  },
  // A declined card changes nothing: the order keeps awaiting payment and the reservation its stock, so the
  // buyer confirms again with the same client secret, or the reservation lapses at its (extended) `expiresAt`.
  'payment_intent.payment_failed': async (event) => {
    if (event.type !== 'payment_intent.payment_failed') return;
    const intent = event.data.object;
    logger.info('Stripe payment failed', { eventId: event.id, orderId: intent.metadata?.orderId });
  },
  // A refund, ours or one made in Stripe's dashboard: recorded on the order once (by the refund's id), nothing else.
  'charge.refunded': async (event) => {
    if (event.type !== 'charge.refunded') return;
    const charge = event.data.object;
    const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    await recordChargeRefunds(
      { id: charge.id, paymentIntent: paymentIntent ?? null, metadata: charge.metadata },
      event.id,
    );
  },
  // Disputes and refunds that fail later: stripe-follow-ups.ts.
  ...followUpHandlers,
};

export async function receiveStripeEvent(rawBody: string, signature: string | undefined): Promise<void> {
  const event = await verifyWebhook(rawBody, signature);
  const handle = stripeEventHandlers[event.type];
  if (!handle) {
    logger.info('Stripe event acknowledged, no handler', { eventId: event.id, eventType: event.type });
    return;
  }
  await handle(event);
}
