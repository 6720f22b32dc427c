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
