import { requireSection } from '../../config.ts';
import * as z from '../../schema.ts';

/**
 * The stage's Stripe publishable key (the stage file's `payments.stripePublishableKey`, in every function's
 * environment: it is public, the buyer's browser gives it to Stripe.js). Apart from payments.ts so the
 * routes that only show it do not bundle the Stripe SDK. Absent: the stage takes no payments yet.
 */
const Settings = z.lazy(() =>
  z.object({
    STRIPE_PUBLISHABLE_KEY: z.optional(
      z.string().check(z.regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key')),
    ),
  }),
);

export const stripePublishableKey = (): string | undefined =>
  requireSection('the payment settings', Settings).STRIPE_PUBLISHABLE_KEY;
