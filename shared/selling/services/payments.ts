import Stripe from 'stripe';
import { attemptTimeout, CLIENT_SETTINGS } from '../../aws-clients.ts';
import { requireSection } from '../../config.ts';
import { keptPerContainer } from '../../container-state.ts';
import { Conflict, DependencyUnavailable, ValidationError } from '../../errors.ts';
import * as z from '../../schema.ts';
import { readSecretString } from '../../services/secrets.ts';

/**
 * The service's Stripe client (README "Payments"): the official SDK, API version pinned, built at the
 * first call of a container with the stage's secret key, fetched at run time from Secrets Manager
 * (`ticketing/<stage>/stripe`, set by `npm run keys -- stripe`). Infra gives STRIPE_SECRET and
 * GetSecretValue on that one secret only to rows with `uses.payments`; the publishable key is every function's
 * (payment-settings.ts). Every call that changes
 * something carries the caller's idempotency key, so a retry (the SDK's, or the caller's) acts once.
 * Locally STRIPE_API_URL points the SDK at the stand-in (bin/local/stripe/).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';
/** Stripe's own default: an event signed more than 5 minutes before it arrives is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const Settings = z.lazy(() =>
  z.object({
    STRIPE_SECRET: z.string().check(z.minLength(1)),
    STRIPE_API_URL: z.optional(z.url()),
  }),
);

const StripeSecret = z.lazy(() =>
  z.object({
    secretKey: z.string().check(z.regex(/^(sk|rk)_(test|live)_\w+$/)),
    webhookSecret: z.string().check(z.regex(/^whsec_\w+$/)),
  }),
);
export type StripeSecret = z.infer<typeof StripeSecret>;

interface Connected {
  stripe: Stripe;
  webhookSecret: string;
  livemode: boolean;
}
let connected: Promise<Connected> | undefined;

const settings = () => requireSection('payments', Settings);

async function connect(): Promise<Connected> {
  const { STRIPE_SECRET, STRIPE_API_URL } = settings();
  const secret = StripeSecret.parse(JSON.parse(await readSecretString(STRIPE_SECRET)));
  const local = STRIPE_API_URL ? new URL(STRIPE_API_URL) : undefined;
  const stripe = new Stripe(secret.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: CLIENT_SETTINGS['payment processor'].maxAttempts - 1,
    timeout: attemptTimeout('payment processor'),
    telemetry: false,
    appInfo: { name: 'ticketing-api' },
    ...(local
      ? { host: local.hostname, port: Number(local.port), protocol: local.protocol === 'https:' ? 'https' : 'http' }
      : {}),
  });
  return { stripe, webhookSecret: secret.webhookSecret, livemode: secret.secretKey.includes('_live_') };
}

/** The container's client, made once; a failed secret read is tried again at the next call. */
function client(): Promise<Connected> {
  connected ??= connect().catch((error: unknown) => {
    connected = undefined;
    throw error;
  });
  return connected;
}

/** Stripe not answering (network, 5xx, rate limited) after the SDK's retry: a 503, like any dependency. */
async function calling<T>(call: (stripe: Stripe) => Promise<T>): Promise<T> {
  const { stripe } = await client();
  try {
    return await call(stripe);
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError
    )
      throw new DependencyUnavailable('payment processor', CLIENT_SETTINGS['payment processor'].retryAfterSeconds, {
        cause: error,
      });
    throw error;
  }
}

/** The publishable key the buyer's browser gives Stripe.js: the stage file's, in the function's environment. */
export { stripePublishableKey as publishableKey } from './payment-settings.ts';

export interface PaymentRequest {
  orderId: number | string;
  reservationId: number | string;
  /** Stripe's `amount`: its unit for the currency (shared/money.ts `toStripeAmount`). */
  amount: number;
  /** ISO 4217, any case. */
  currency: string;
  customerEmail: string;
}

/**
 * Stripe refusing an amount as too small or too large: 409 `amount_below_minimum` / `amount_above_maximum`, never a
 * 500. A hold already checks Stripe's table (shared/money.ts `chargeLimits`); Stripe applies its minimum after
 * converting into the account's settlement currency, which a currency the table does not list can still fall below.
 */
function refusedAmount(error: unknown): never {
  const reason =
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    { amount_too_small: 'amount_below_minimum', amount_too_large: 'amount_above_maximum' }[error.code as string];
  if (!reason) throw error;
  throw new Conflict(`Stripe refused the amount: ${(error as Error).message}`, reason, {
    processorCode: (error as { code?: string }).code ?? null,
  });
}

/** A PaymentIntent for an order; the browser confirms it with its client secret. */
export async function createPaymentIntent(
  request: PaymentRequest,
  idempotencyKey: string,
): Promise<{ id: string; clientSecret: string }> {
  const intent = await calling((stripe) =>
    stripe.paymentIntents.create(
      {
        amount: request.amount,
        currency: request.currency.toLowerCase(),
        // What the webhook needs to find the order again without a lookup table.
        metadata: { orderId: String(request.orderId), reservationId: String(request.reservationId) },
        receipt_email: request.customerEmail,
        // Cards only (wallets such as Apple Pay and Google Pay are cards): a card payment settles in seconds, while a
        // delayed method (SEPA Direct Debit, ACH) would succeed days after the reservation's hold ended (README
        // "Payments"). The pinned API version's name for what older ones called `payment_method_types`.
        allowed_payment_method_types: ['card'],
      },
      { idempotencyKey },
    ),
  ).catch(refusedAmount);
  return { id: intent.id, clientSecret: intent.client_secret! };
}

/** A refund as Stripe reports it; `amount` in Stripe's unit for its `currency` (shared/money.ts `fromStripeAmount`). */
export interface StripeRefund {
  id: string;
  amount: number;
  currency: string;
  status: string | null;
  paymentIntent: string | null;
  /** Unix seconds. */
  created: number;
  metadata: Record<string, string>;
}

/** A Stripe refund (the SDK's, or an event's object) as the service reads it. */
export const toRefund = (refund: Stripe.Refund): StripeRefund => ({
  id: refund.id,
  amount: refund.amount,
  currency: refund.currency,
  status: refund.status,
  paymentIntent:
    typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null),
  created: refund.created,
  metadata: refund.metadata ?? {},
});

/** A part of a payment to refund: `amount` in the currency's minor unit, `metadata` naming the part on Stripe's refund. */
export interface RefundPart {
  amount: number;
  metadata: Record<string, string>;
}

/**
 * Refunds a PaymentIntent in full (what is left of its one charge), or `part` of it. Stripe refusing it (a 4xx:
 * already refunded, more than is left, disputed, no such payment) is a 409 `refund_refused` with Stripe's
 * `processorCode`: retrying the same call cannot help; Stripe not answering is the 503 of `calling`.
 */
export async function refundPayment(
  paymentIntentId: string,
  idempotencyKey: string,
  part?: RefundPart,
): Promise<StripeRefund> {
  const params = part
    ? { payment_intent: paymentIntentId, amount: part.amount, metadata: part.metadata }
    : { payment_intent: paymentIntentId };
  try {
    return toRefund(await calling((stripe) => stripe.refunds.create(params, { idempotencyKey })));
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    throw new Conflict(`Stripe refused to refund payment ${paymentIntentId}: ${error.message}`, 'refund_refused', {
      processorCode: error.code ?? null,
    });
  }
}

/** The refunds of one charge or PaymentIntent, newest first (at most 100: a charge is refunded in a few parts at most). */
export async function listRefunds(of: { charge: string } | { paymentIntent: string }): Promise<StripeRefund[]> {
  const filter = 'charge' in of ? { charge: of.charge } : { payment_intent: of.paymentIntent };
  try {
    const page = await calling((stripe) => stripe.refunds.list({ ...filter, limit: 100 }));
    return page.data.map(toRefund);
  } catch (error) {
    // A charge or payment Stripe does not know has no refunds (a signed event may name one: nothing to record).
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Stripe answering that the object named does not exist (an id of another account, or none at all). */
const isMissing = (error: unknown): boolean =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';

/** A PaymentIntent's metadata (where a charge's event lacks the order id); empty for one Stripe does not know. */
export async function paymentMetadata(paymentIntentId: string): Promise<Record<string, string>> {
  try {
    return (await calling((stripe) => stripe.paymentIntents.retrieve(paymentIntentId))).metadata ?? {};
  } catch (error) {
    if (isMissing(error)) return {};
    throw error;
  }
}

/** A PaymentIntent's client secret, read again by its id (the checkout stores the id on its order). */
export async function paymentClientSecret(paymentIntentId: string): Promise<string> {
  return (await calling((stripe) => stripe.paymentIntents.retrieve(paymentIntentId))).client_secret!;
}

/**
 * Cancels a PaymentIntent the buyer has not paid (`abandoned`), so it cannot be paid any more. `not_cancelable` when
 * Stripe refuses (it succeeded, or was cancelled, first): its own state says what happened.
 */
export async function cancelPaymentIntent(
  paymentIntentId: string,
  idempotencyKey: string,
): Promise<'canceled' | 'not_cancelable'> {
  try {
    await calling((stripe) =>
      stripe.paymentIntents.cancel(paymentIntentId, { cancellation_reason: 'abandoned' }, { idempotencyKey }),
    );
    return 'canceled';
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state')
      return 'not_cancelable';
    throw error;
  }
}

/**
 * Stripe's signature on a webhook's raw body, checked by the SDK (`constructEvent`, 5 minutes' tolerance),
 * and the event's account: one of another mode (a live event at a test key, or the reverse) or of a
 * connected account (`account`: this service is no Connect platform) is refused. Every refusal is a
 * ValidationError, which the route answers 400.
 */
export async function verifyWebhook(rawBody: string, signatureHeader: string | undefined): Promise<Stripe.Event> {
  if (!signatureHeader)
    throw new ValidationError('The Stripe-Signature header is missing.', [
      { path: 'header.stripe-signature', message: 'required' },
    ]);
  const { stripe, webhookSecret, livemode } = await client();
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    throw new ValidationError(`The Stripe signature does not verify: ${(error as Error).message}`, [
      { path: 'header.stripe-signature', message: 'does not verify' },
    ]);
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    throw new ValidationError('The body is not a Stripe event.', [{ path: 'body', message: 'expected an object' }]);
  if (event.livemode !== livemode || event.account !== undefined)
    throw new ValidationError("The event is not this stage's Stripe account's.", [
      { path: 'body.livemode', message: livemode ? 'expected a live event' : 'expected a test event' },
    ]);
  return event;
}

// A new container reads the secret again (tests rotate it between cases).
keptPerContainer(() => {
  connected = undefined;
});
