import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stripeSecretName } from '#shared/domain/payment-processor';
import { readSecretString } from '#shared/services/secrets';
import { STRIPE_API_VERSION } from '#shared/services/payments';
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

/** `stripe.confirmPayment` as Stripe.js sends it: a form with the publishable key and the client secret. */
export async function confirmAsBrowser(
  keys: Pick<StandInKeys, 'publishableKey'>,
  intent: { id: string; clientSecret: string },
  paymentMethod: string,
  baseUrl = apiUrl(),
): Promise<{ status: number; body: any }> {
  const answer = await fetch(new URL(`/v1/payment_intents/${intent.id}/confirm`, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      payment_method: paymentMethod,
      expected_payment_method_type: 'card',
      use_stripe_sdk: 'true',
      key: keys.publishableKey,
      client_secret: intent.clientSecret,
    }),
  });
  return { status: answer.status, body: await answer.json() };
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
