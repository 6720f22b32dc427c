import * as z from '../../schema.ts';
import { saleCurrency, type Event } from '../../events/domain/event.ts';

/**
 * The account's payment processor: the public settings a checkout page needs. Never a
 * secret key: those live in AWS Secrets Manager, readable only by the payment functions.
 */
export const PAYMENT_PROVIDERS = ['stripe', 'square', 'paypal'] as const;
export const PAYMENT_MODES = ['test', 'live'] as const;

/**
 * `GET /my-account/payment-processor`: the record, and `processor`, who takes the checkout's payments (the
 * checkout's `payment.processor`). Where the stage has a Stripe publishable key, `processor` and `provider`
 * are `stripe` and the key and mode are the stage's: the stage file, not the table, configures Stripe. Asked for
 * an event, `currency` is what that event's checkout charges in (each event has its own); else the record's.
 */
export const PaymentProcessorResource = z.strictObject({
  processor: z
    .enum(PAYMENT_PROVIDERS)
    .check(
      z.describe(
        "Who takes the checkout's payments (`stripe`: with Stripe.js and `publishableKey`), as the checkout's `payment.processor`.",
      ),
    ),
  provider: z.enum(PAYMENT_PROVIDERS),
  publishableKey: z.string().check(z.describe("The provider's publishable (client-side) key.")),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/), z.describe('ISO 4217.')),
  mode: z.enum(PAYMENT_MODES),
  merchantName: z.string(),
});
export type PaymentProcessorAnswer = z.output<typeof PaymentProcessorResource>;

/** The record as stored: the answer without `processor`, which the stage decides. */
export type PaymentProcessor = Omit<PaymentProcessorAnswer, 'processor'>;

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
 * the rows with `uses.payments` only (shared/selling/services/payments.ts); the publishable key is in the stage file.
 */
export const stripeSecretName = (stage: string): string => `ticketing/${stage}/stripe`;
