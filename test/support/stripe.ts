import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll } from 'vitest';
import { stripeSecretName } from '#shared/selling/domain/payment-processor';
import { readSecretString } from '#shared/services/secrets';
import { STRIPE_API_VERSION } from '#shared/selling/services/payments';
import { startStripeStandIn, type StripeStandInOptions } from '../../bin/local/stripe/server.ts';
import { call, type CallResult } from './api.ts';

/**
 * The tests' side of the Stripe stand-in the global set-up starts (bin/local/stripe/, STRIPE_API_URL): its
 * keys as the service reads them (the local stage's Stripe secret), the real SDK pointed at it, a browser's
 * confirm as Stripe.js sends it, its test controls, and a relay that hands its signed deliveries to the
 * webhook route in this worker (the route runs in-process, so the stand-in cannot reach it by itself).
 */
export const WEBHOOK_PATH = '/api/v2/payments/stripe/webhook';

export interface StandInKeys {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
}

const apiUrl = () => new URL(process.env.STRIPE_API_URL!);

export async function standInKeys(): Promise<StandInKeys> {
  const secret = JSON.parse(
    await readSecretString(process.env.STRIPE_SECRET ?? stripeSecretName('test')),
  ) as StandInKeys;
  return { ...secret, publishableKey: process.env.STRIPE_PUBLISHABLE_KEY! };
}

/** The real SDK, as the service configures it, with the key given (the stand-in's, or a wrong one). */
export function stripeSdk(secretKey: string, baseUrl = apiUrl()): Stripe {
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: baseUrl.hostname,
    port: Number(baseUrl.port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/**
 * `stripe.confirmPayment` as Stripe.js sends it: a form with the publishable key and the client secret, and the
 * card as a PaymentMethod id (`pm_card_visa`) or, as from Stripe.js's card field, its `payment_method_data`
 * (`stripeJsCard`). `extra`: more form fields (`return_url`), or `use_stripe_sdk: undefined` to leave it out.
 */
export async function confirmAsBrowser(
  keys: Pick<StandInKeys, 'publishableKey'>,
  intent: { id: string; clientSecret: string },
  paymentMethod: string | Record<string, string>,
  baseUrl = apiUrl(),
  extra: Record<string, string | undefined> = {},
): Promise<{ status: number; body: any }> {
  const fields: Record<string, string | undefined> = {
    ...(typeof paymentMethod === 'string' ? { payment_method: paymentMethod } : paymentMethod),
    expected_payment_method_type: 'card',
    use_stripe_sdk: 'true',
    key: keys.publishableKey,
    client_secret: intent.clientSecret,
    ...extra,
  };
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.append(name, value);
  const answer = await fetch(new URL(`/v1/payment_intents/${intent.id}/confirm`, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: answer.status, body: await answer.json() };
}

/**
 * What Stripe.js's card field sends as `payment_method_data` for a typed card number (with its own fraud signals
 * and where the page is), as `confirmCardPayment(secret, {payment_method: {card, billing_details}})` does.
 */
export function stripeJsCard(number: string, billing: Record<string, string> = {}): Record<string, string> {
  return {
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': number,
    'payment_method_data[card][cvc]': '123',
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': String(new Date().getUTCFullYear() + 2).slice(-2),
    ...Object.fromEntries(
      Object.entries(billing).map(([path, value]) => [`payment_method_data[billing_details]${path}`, value]),
    ),
    'payment_method_data[guid]': crypto.randomUUID(),
    'payment_method_data[muid]': crypto.randomUUID(),
    'payment_method_data[sid]': crypto.randomUUID(),
    'payment_method_data[pasted_fields]': 'number',
    'payment_method_data[payment_user_agent]': 'stripe.js/1234567890; stripe-js-v3/1234567890; card-element',
    'payment_method_data[referrer]': 'http://localhost:5174',
    'payment_method_data[time_on_page]': '41250',
    'payment_method_data[client_attribution_metadata][merchant_integration_source]': 'elements',
    'payment_method_data[client_attribution_metadata][merchant_integration_subtype]': 'card-element',
  };
}

/**
 * A stand-in of a test file's own (its switches and clock touch no other file's payments), the SDK pointed at it,
 * and a receiver that checks each delivery with the SDK's `constructEvent` and keeps the events.
 */
export async function ownStandIn(options: StripeStandInOptions = {}) {
  const standIn = await startStripeStandIn(options);
  const base = new URL(standIn.baseUrl);
  const stripe = stripeSdk(standIn.keys.secretKey, base);
  const received: Stripe.Event[] = [];
  const receiver = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const signature = String(request.headers['stripe-signature']);
      received.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), signature, standIn.keys.webhookSecret, 300));
      response.writeHead(200).end('{"received":true}');
    } catch {
      response.writeHead(400).end();
    }
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  standIn.webhooks.configure({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` });
  return {
    standIn,
    base,
    stripe,
    /** The events delivered about one PaymentIntent (its own, its charge's, its refunds'), in order. */
    eventsOf: async (intentId: string) => {
      await standIn.webhooks.settle();
      return received.filter((event) => {
        const object = event.data.object as { id?: string; payment_intent?: string };
        return object.id === intentId || object.payment_intent === intentId;
      });
    },
    close: async () => {
      receiver.closeAllConnections();
      receiver.close();
      await standIn.close();
    },
  };
}

/** The stand-in's test controls (`/_stand-in/…`, JSON, the secret key). */
export async function standInControl(
  keys: Pick<StandInKeys, 'secretKey'>,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  baseUrl = apiUrl(),
): Promise<any> {
  const answer = await fetch(new URL(`/_stand-in/${path}`, baseUrl), {
    method,
    headers: { authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`stand-in ${method} ${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

export interface WebhookRelay {
  url: string;
  /** The route's answers, in the order the deliveries came, with the event each carried. */
  answers: Array<{ event: Stripe.Event; answer: CallResult }>;
  close(): Promise<void>;
}

/** An HTTP receiver on 127.0.0.1 that hands each delivery, bytes and headers as they came, to the webhook route. */
export async function webhookRelay(): Promise<WebhookRelay> {
  const answers: WebhookRelay['answers'] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'stripe-signature', 'user-agent'])
      if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
    const answer = await call('POST', WEBHOOK_PATH, { body, headers });
    answers.push({ event: JSON.parse(body.toString('utf8')), answer });
    response.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'text/plain' });
    response.end(answer.raw);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    answers,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A test file's (or a describe block's) stand-in: its keys and a relay to the webhook route, ready before its first
 * test and the relay closed after its last. The two objects are filled in then, so the file takes them once at its top.
 */
export function useStripeStandIn(): { keys: StandInKeys; relay: WebhookRelay } {
  const keys = {} as StandInKeys;
  const relay = {} as WebhookRelay;
  beforeAll(async () => {
    Object.assign(keys, await standInKeys());
    Object.assign(relay, await webhookRelay());
  });
  afterAll(() => relay.close());
  return { keys, relay };
}
