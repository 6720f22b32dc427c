import { randomBytes } from 'node:crypto';

/** What every part of the stand-in shares: its objects as JSON, how a state change is emitted, ids and times. */
export type StripeObject = Record<string, unknown> & { id: string; object: string };
export type Emit = (type: string, object: StripeObject, paymentIntent: string) => void;

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
/** Unix seconds, as Stripe's `created`. */
export const now = () => Math.floor(Date.now() / 1000);
