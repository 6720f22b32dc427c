import * as z from '../schema.ts';
import { PAYMENT_MODES, PAYMENT_PROVIDERS, type PaymentProcessor } from './payment-processor.ts';

/** `GET /my-account/payment-processor`: public settings only, never a secret key. */
export const PaymentProcessorResource = z.strictObject({
  provider: z.enum(PAYMENT_PROVIDERS),
  publishableKey: z.string().check(z.describe("The provider's publishable (client-side) key.")),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/), z.describe('ISO 4217.')),
  mode: z.enum(PAYMENT_MODES),
  merchantName: z.string(),
});

true satisfies z.Same<z.output<typeof PaymentProcessorResource>, PaymentProcessor>;
