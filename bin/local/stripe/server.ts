import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authentication, idempotencyConflict, invalidRequest, StripeFailure } from './errors.ts';
import { decodeForm, fingerprint, type Form } from './form.ts';
import { stripeId, type StripeObject } from './objects.ts';
import { publicView, Resources } from './resources.ts';
import { type DeliverySwitches, Webhooks } from './webhooks.ts';

/**
 * A local stand-in for the part of Stripe's REST API the service uses (bin/README.md "The local stand-ins"):
 * the real `stripe` SDK reaches it through its `host`/`port`/`protocol` options (STRIPE_API_URL), Stripe.js's
 * confirm call is a form POST with the publishable key as `key`. One account, its keys made per run.
 * `/_stand-in/…` (JSON, the secret key) drives the webhook switches and lists what was sent (webhooks.ts).
 */
export interface StripeKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export interface StripeStandIn {
  baseUrl: string;
  keys: StripeKeys;
  webhooks: Webhooks;
  close(): Promise<void>;
}

export interface StripeStandInOptions {
  keys?: Partial<StripeKeys>;
  /** The instance's delivery switches; `url`: where events go (npm start: the API's webhook route). */
  deliveries?: DeliverySwitches;
}

const MAX_BODY = 64 * 1024;
const secretToken = (prefix: string) => `${prefix}_${randomBytes(24).toString('hex')}`;

interface Stored {
  route: string;
  fingerprint: string;
  status: number;
  body: string;
}

type Role = 'secret' | 'publishable';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw invalidRequest('The request body is too large.', {}, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function bearer(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization ?? '';
  const [scheme, value = ''] = header.split(' ');
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const masked = (key: string) => `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export async function startStripeStandIn(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const keys: StripeKeys = {
    secretKey: secretToken('sk_test_local'),
    publishableKey: secretToken('pk_test_local'),
    webhookSecret: secretToken('whsec'),
    ...options.keys,
  };
  const webhooks = new Webhooks(keys.webhookSecret, options.deliveries);
  let request: { id: string; idempotencyKey: string | null } = { id: '', idempotencyKey: null };
  const resources = new Resources((type, object, intent) => webhooks.emit(type, object, intent, request));
  const replays = new Map<string, Stored>();
  /**
   * Injected failures (`POST /_stand-in/faults` `{route: 'POST /v1/refunds', status: 500, times: 2}`): the next
   * `times` calls of the route answer `status` as Stripe's API failing before it acts: nothing done, nothing kept
   * under the idempotency key (a retry with the key acts). `times: 0` clears. With `paymentIntent`, only the calls
   * naming that intent (`payment_intent`); with `idempotencyKey`, only the calls sent with that key: a test fails its
   * own payment's or order's calls, not another's running beside it.
   */
  const faults = new Map<string, { status: number; times: number }>();
  const faultKey = (route: string, scope?: unknown) => (typeof scope === 'string' ? `${route} ${scope}` : route);

  /** Who calls: the secret key (Bearer or Basic), or the publishable key as Stripe.js sends it (`key`). */
  const roleOf = (incoming: IncomingMessage, form: Form): Role => {
    const key = bearer(incoming) ?? (typeof form.key === 'string' ? form.key : undefined);
    if (!key)
      throw authentication(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    if (key === keys.secretKey) return 'secret';
    if (key === keys.publishableKey) return 'publishable';
    throw authentication(`Invalid API Key provided: ${masked(key)}`);
  };
  const needSecret = (role: Role) => {
    if (role !== 'secret')
      throw authentication('This API call cannot be made with a publishable API key. Please use a secret API key.');
  };
  /** A publishable key reaches a PaymentIntent only with its client secret. */
  const withClientSecret = (intent: StripeObject, form: Form) => {
    if (form.client_secret !== intent.client_secret)
      throw invalidRequest('The client_secret provided does not match any associated PaymentIntent on this account.', {
        param: 'client_secret',
      });
  };

  const stripeRoute = (method: string, path: string, form: Form, role: Role): Record<string, unknown> => {
    const intentPath = /^\/v1\/payment_intents\/([^/]+)(\/confirm|\/cancel)?$/.exec(path);
    if (method === 'POST' && path === '/v1/payment_intents') {
      needSecret(role);
      return resources.createPaymentIntent(form);
    }
    if (intentPath) {
      const id = intentPath[1]!;
      const action = intentPath[2];
      if (method === 'GET' && !action) {
        const intent = resources.paymentIntent(id);
        if (role === 'secret') return intent;
        withClientSecret(intent, form);
        return publicView(intent);
      }
      if (method === 'POST' && action === '/confirm') {
        if (role === 'publishable') withClientSecret(resources.paymentIntent(id), form);
        const intent = resources.confirm(id, form);
        return role === 'secret' ? intent : publicView(intent);
      }
      if (method === 'POST' && action === '/cancel') {
        needSecret(role);
        return resources.cancel(id, form);
      }
    }
    if (method === 'POST' && path === '/v1/refunds') {
      needSecret(role);
      return resources.refund(form);
    }
    if (method === 'GET' && path === '/v1/refunds') {
      needSecret(role);
      return resources.listRefunds(form);
    }
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && refund) {
      needSecret(role);
      return resources.refundById(refund[1]!);
    }
    throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, {}, 404);
  };

  /** Every refund due to fail has failed, then every delivery under way has its answer. */
  const settle = () => resources.followUps.settle().then(() => webhooks.settle());

  /**
   * The test controls (JSON): switches, the events and deliveries so far, resend, settle, release; a payment's
   * disputes (`GET disputes?payment_intent=`) and a dispute's next status (`POST disputes/{id}` `{status}`).
   */
  const control = async (method: string, path: string, url: URL, body: string): Promise<unknown> => {
    const input = body ? (JSON.parse(body) as DeliverySwitches & { url?: string; status?: string }) : {};
    const intent = url.searchParams.get('payment_intent');
    const switches = /^\/_stand-in\/payment_intents\/([^/]+)\/webhooks$/.exec(path);
    const resend = /^\/_stand-in\/events\/([^/]+)\/resend$/.exec(path);
    // An action answers undefined: `{ok: true}`.
    if (method === 'POST' && path === '/_stand-in/webhooks') return webhooks.configure(input);
    if (method === 'POST' && switches) {
      resources.paymentIntent(switches[1]!);
      return webhooks.configureIntent(switches[1]!, input);
    }
    if (method === 'GET' && path === '/_stand-in/events')
      return { data: intent ? webhooks.events.filter((e) => paymentIntentOf(e) === intent) : webhooks.events };
    if (method === 'GET' && path === '/_stand-in/deliveries')
      return { data: intent ? webhooks.deliveries.filter((d) => d.paymentIntent === intent) : webhooks.deliveries };
    if (method === 'POST' && resend) {
      if (!webhooks.resend(resend[1]!, input.url)) throw invalidRequest(`No such event: '${resend[1]}'`, {}, 404);
      return;
    }
    if (method === 'POST' && path === '/_stand-in/faults') {
      const {
        route,
        status = 500,
        times = 1,
        paymentIntent,
        idempotencyKey,
      } = input as {
        route?: string;
        status?: number;
        times?: number;
        paymentIntent?: string;
        idempotencyKey?: string;
      };
      if (!route) throw invalidRequest('A fault names its route (`POST /v1/refunds`).', { param: 'route' });
      faults.set(faultKey(route, idempotencyKey === undefined ? paymentIntent : `key ${idempotencyKey}`), {
        status,
        times,
      });
      return;
    }
    const dispute = /^\/_stand-in\/disputes\/([^/]+)$/.exec(path);
    const { followUps } = resources;
    if (method === 'GET' && path === '/_stand-in/disputes') return { data: followUps.disputesOf(intent ?? '') };
    if (method === 'POST' && dispute) return followUps.moveDispute(dispute[1]!, String(input.status ?? ''));
    if (method === 'POST' && path === '/_stand-in/settle') return settle();
    if (method === 'POST' && path === '/_stand-in/release') return webhooks.release(intent ?? undefined);
    throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, {}, 404);
  };

  // Any origin may read the answers, as api.stripe.com's: a browser page confirms with the publishable key.
  const answer = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': stripeId('req'),
      'access-control-allow-origin': '*',
      ...headers,
    });
    response.end(body);
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const method = incoming.method ?? 'GET';
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const idempotencyKey =
      method === 'POST' ? ((incoming.headers['idempotency-key'] as string | undefined) ?? null) : null;
    const requestId = stripeId('req');
    try {
      const body = await readBody(incoming);
      if (url.pathname.startsWith('/_stand-in/')) {
        needSecret(roleOf(incoming, {}));
        return answer(response, 200, JSON.stringify((await control(method, url.pathname, url, body)) ?? { ok: true }));
      }
      const form = decodeForm(method === 'GET' ? url.search.slice(1) : body);
      const role = roleOf(incoming, form);
      const route = `${method} ${url.pathname}`;
      const named = [faultKey(route, form.payment_intent), faultKey(route, `key ${idempotencyKey}`)]
        .map((key) => faults.get(key))
        .find((candidate) => candidate?.times);
      const fault = named ?? faults.get(route);
      if (fault && fault.times > 0) {
        fault.times--;
        throw new StripeFailure(fault.status, { type: 'api_error', message: 'An injected failure of the stand-in.' });
      }
      const print = fingerprint(form);
      const earlier = idempotencyKey ? replays.get(idempotencyKey) : undefined;
      if (earlier) {
        if (earlier.route !== route || earlier.fingerprint !== print) throw idempotencyConflict(idempotencyKey!);
        return answer(response, earlier.status, earlier.body, {
          'idempotent-replayed': 'true',
          'idempotency-key': idempotencyKey!,
        });
      }
      let status = 200;
      let text: string;
      try {
        // Set with no await before the route: the events it emits name this request.
        request = { id: requestId, idempotencyKey };
        text = JSON.stringify(stripeRoute(method, url.pathname, form, role));
      } catch (error) {
        if (!(error instanceof StripeFailure)) throw error;
        status = error.status;
        text = JSON.stringify({ error: { ...error.error, request_log_url: `stand-in/${requestId}` } });
      }
      // Stripe keeps the first answer, an error too, for the key's 24 hours (here: the run).
      if (idempotencyKey) replays.set(idempotencyKey, { route, fingerprint: print, status, body: text });
      return answer(response, status, text, idempotencyKey ? { 'idempotency-key': idempotencyKey } : {});
    } catch (error) {
      const failure =
        error instanceof StripeFailure
          ? error
          : new StripeFailure(error instanceof SyntaxError ? 400 : 500, {
              type: error instanceof SyntaxError ? 'invalid_request_error' : 'api_error',
              message: (error as Error).message,
            });
      return answer(response, failure.status, JSON.stringify({ error: failure.error }));
    }
  };

  const server = createServer((incoming, response) => void handle(incoming, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keys,
    webhooks,
    close: async () => {
      webhooks.close();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function paymentIntentOf(event: StripeObject): unknown {
  const object = (event.data as { object: StripeObject }).object;
  return object.object === 'payment_intent' ? object.id : object.payment_intent;
}
