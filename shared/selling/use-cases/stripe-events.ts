import type Stripe from 'stripe';
import { logger } from '../../logger.ts';
import * as z from '../../schema.ts';
import { Currency, idOf, Metadata, Reference, readObject } from './stripe-objects.ts';
import { verifyWebhook } from '../services/payments.ts';
import { recordChargeRefunds } from './refunds.ts';
import { applySucceededPayment } from './succeeded-payments.ts';
import { followUpHandlers } from './stripe-follow-ups.ts';

/**
 * `POST /payments/stripe/webhook`: Stripe's events, verified first (signature over the raw body, 5 minutes'
 * tolerance, this stage's account and mode: shared/selling/services/payments.ts), then handed to the handler of
 * their type. Stripe sends an event at least once, in any order and possibly late, so each handler must
 * change nothing twice and never step an order back. A type without a handler is acknowledged and logged:
 * Stripe stops sending what it is answered 2xx for, and an endpoint subscribed to more types does no harm.
 */
export type StripeEventHandler = (event: Stripe.Event) => Promise<void>;

/**
 * The events the service acts on, by type. The checkout plugs in here: `payment_intent.succeeded`
 * (the order paid, its tickets issued, or refunded when they are gone; a payment that is not the order's refunded:
 * succeeded-payments.ts), `payment_intent.payment_failed`,
 * `charge.refunded` (its refunds recorded on the order: refunds.ts); the disputes and the refunds that fail later are
 * stripe-follow-ups.ts's.
 */
export const stripeEventHandlers: Partial<Record<Stripe.Event.Type, StripeEventHandler>> = {
  'payment_intent.succeeded': async (event) => {
    const intent = readObject(event, SucceededIntentObject);
    if (!intent) return;
    const orderId = Number(intent.metadata?.orderId);
    await applySucceededPayment(
      {
        intentId: intent.id,
        amount: intent.amount_received,
        currency: intent.currency,
        orderHint: Number.isSafeInteger(orderId) && orderId > 0 ? orderId : null,
        at: new Date(event.created * 1000).toISOString(),
      },
      event.id,
    );
  },
  // A declined card changes nothing: the order keeps awaiting payment and the reservation its stock, so the
  // buyer confirms again with the same client secret, or the reservation lapses at its (extended) `expiresAt`.
  'payment_intent.payment_failed': async (event) => {
    const intent = readObject(event, IntentObject);
    logger.info('Stripe payment failed', { eventId: event.id, orderId: intent?.metadata?.orderId });
  },
  // A refund, ours or one made in Stripe's dashboard: recorded on the order once (by the refund's id), nothing else.
  'charge.refunded': async (event) => {
    const charge = readObject(event, RefundedChargeObject);
    if (!charge) return;
    await recordChargeRefunds(
      { id: charge.id, paymentIntent: idOf(charge.payment_intent), metadata: charge.metadata ?? null },
      event.id,
    );
  },
  // Disputes and refunds that fail later: stripe-follow-ups.ts.
  ...followUpHandlers,
};

const IntentObject = z.lazy(() => z.looseObject({ id: z.string(), metadata: Metadata }));
const SucceededIntentObject = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    amount_received: z.int().check(z.nonnegative()),
    currency: Currency,
    metadata: Metadata,
  }),
);
const RefundedChargeObject = z.lazy(() =>
  z.looseObject({ id: z.string(), payment_intent: Reference, metadata: Metadata }),
);

/** What every handler reads of the event itself. */
const Envelope = z.lazy(() => z.looseObject({ id: z.string(), type: z.string(), created: z.int() }));

export async function receiveStripeEvent(rawBody: string, signature: string | undefined): Promise<void> {
  const event = await verifyWebhook(rawBody, signature);
  if (!Envelope.safeParse(event).success) {
    logger.warn('Stripe event it cannot read acknowledged', { eventId: String(event.id) });
    return;
  }
  // Own properties only: a type named `constructor` or `__proto__` is no handler.
  const handle = Object.hasOwn(stripeEventHandlers, event.type)
    ? stripeEventHandlers[event.type as Stripe.Event.Type]
    : undefined;
  if (!handle) {
    logger.info('Stripe event acknowledged, no handler', { eventId: event.id, eventType: event.type });
    return;
  }
  await handle(event);
}
