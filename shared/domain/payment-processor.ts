import { saleCurrency, type Event } from './event.ts';

/**
 * The account's payment processor: the public settings a checkout page needs. Never a
 * secret key: those live in AWS Secrets Manager, readable only by the payment functions.
 */
export const PAYMENT_PROVIDERS = ['stripe', 'square', 'paypal'] as const;
export const PAYMENT_MODES = ['test', 'live'] as const;

export interface PaymentProcessor {
  provider: (typeof PAYMENT_PROVIDERS)[number];
  /** The provider's publishable (client-side) key. */
  publishableKey: string;
  /** ISO 4217, e.g. `GBP`. */
  currency: string;
  mode: (typeof PAYMENT_MODES)[number];
  merchantName: string;
}

/**
 * `GET /my-account/payment-processor`: the record, and `processor`, who takes the checkout's payments (the
 * checkout's `payment.processor`). Where the stage has a Stripe publishable key, `processor` and `provider`
 * are `stripe` and the key and mode are the stage's: the stage file, not the table, configures Stripe. Asked for
 * an event, `currency` is what that event's checkout charges in (each event has its own); else the record's.
 */
export interface PaymentProcessorAnswer extends PaymentProcessor {
  processor: PaymentProcessor['provider'];
}

export function paymentProcessorAnswer(
  stored: PaymentProcessor,
  stripeKey: string | undefined,
  event?: Pick<Event, 'currency'>,
): PaymentProcessorAnswer {
  const record = event ? { ...stored, currency: saleCurrency(event) } : stored;
  if (!stripeKey) return { processor: record.provider, ...record };
  const mode = stripeKey.startsWith('pk_live_') ? 'live' : 'test';
  return { ...record, processor: 'stripe', provider: 'stripe', publishableKey: stripeKey, mode };
}

/**
 * The stage's Stripe secret (`{secretKey, webhookSecret}`, set by `npm run keys -- stripe`): read at run time by
 * the rows with `uses.payments` only (shared/services/payments.ts); the publishable key is in the stage file.
 */
export const stripeSecretName = (stage: string): string => `ticketing/${stage}/stripe`;
