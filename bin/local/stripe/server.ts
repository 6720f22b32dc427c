import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  authentication,
  idempotencyConflict,
  idempotencyOtherEndpoint,
  invalidParameter,
  RefusedBeforeExecution,
  StripeFailure,
  unrecognizedUrl,
} from './errors.ts';
import { decodeForm, fingerprint, type Form, readBody } from './form.ts';
import type Stripe from 'stripe';
import { AUTHENTICATION_PAGE, authenticationPage } from './authentication-page.ts';
import { testControls } from './controls.ts';
import { Faults } from './faults.ts';
import { stripeId } from './objects.ts';
import { publicView, Resources } from './resources.ts';
import { type DeliverySwitches, type EventRequest, Webhooks } from './webhooks.ts';

/**
 * A local stand-in for the part of Stripe's REST API the service uses (bin/README.md "The local stand-ins"):
 * the real `stripe` SDK reaches it through its `host`/`port`/`protocol` options (STRIPE_API_URL), Stripe.js's
 * confirm call is a form POST with the publishable key as `key`. One account, its keys made per run.
 * `/_stand-in/…` (JSON, the secret key) are the test controls (controls.ts): switches, faults, what was sent, disputes.
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
  /** The stand-in's clock in Unix seconds (objects' `created`, the idempotency keys' 24 hours): a test moves it. */
  now?: () => number;
}

const secretToken = (prefix: string) => `${prefix}_${randomBytes(24).toString('hex')}`;

/** An answer kept under its idempotency key. */
interface Stored {
  route: string;
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  savedAt: number;
}

/** How long Stripe keeps an idempotency key's answer: at least 24 hours, then the key makes a new request. */
const IDEMPOTENCY_KEY_SECONDS = 24 * 60 * 60;

type Role = 'secret' | 'publishable';

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
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const webhooks = new Webhooks(keys.webhookSecret, options.deliveries, now);
  let baseUrl = '';
  let request: EventRequest = { id: null, idempotencyKey: null };
  const resources = new Resources((type, object, intent) => webhooks.emit(type, object, intent, request), {
    now,
    authenticationUrl: (id) => `${baseUrl}/3d_secure_2_test/${id}`,
  });
  const replays = new Map<string, Stored>();
  const faults = new Faults();

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
  const withClientSecret = (intent: Stripe.PaymentIntent, form: Form) => {
    if (form.client_secret !== intent.client_secret)
      throw invalidParameter(
        'The client_secret provided does not match any associated PaymentIntent on this account.',
        {
          param: 'client_secret',
        },
      );
  };

  const stripeRoute = (method: string, path: string, form: Form, role: Role): object => {
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
      return resources.refunds.refund(form);
    }
    if (method === 'GET' && path === '/v1/refunds') {
      needSecret(role);
      return resources.refunds.list(form);
    }
    const paymentMethod = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (method === 'GET' && paymentMethod) {
      needSecret(role);
      return resources.paymentMethod(paymentMethod[1]!);
    }
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && refund) {
      needSecret(role);
      return resources.refunds.byId(refund[1]!);
    }
    throw unrecognizedUrl(method, path);
  };

  const control = testControls({ webhooks, resources, faults });

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

  /** The answer kept under an idempotency key while its 24 hours last; after them the key is free again. */
  const savedAnswer = (idempotencyKey: string): Stored | undefined => {
    const saved = replays.get(idempotencyKey);
    if (saved && now() - saved.savedAt < IDEMPOTENCY_KEY_SECONDS) return saved;
    replays.delete(idempotencyKey);
    return undefined;
  };

  /**
   * Runs a Stripe route: its answer, or its error as Stripe answers it, and whether an endpoint began executing
   * (then Stripe keeps the answer under the idempotency key, a 500 too: a retry with the key gets the same 500).
   */
  const execute = (
    route: string,
    call: () => object,
    fault: ReturnType<Faults['forCall']>,
    requestId: string,
  ): { status: number; body: string; executed: boolean } => {
    try {
      if (fault?.whileExecuting) throw faults.injected(fault);
      return { status: 200, body: JSON.stringify(call()), executed: true };
    } catch (error) {
      const failure =
        error instanceof StripeFailure
          ? error
          : new StripeFailure(500, { type: 'api_error', message: `${route} failed: ${(error as Error).message}` });
      const body = JSON.stringify({ error: { ...failure.error, request_log_url: `stand-in/${requestId}` } });
      return { status: failure.status, body, executed: !(failure instanceof RefusedBeforeExecution) };
    }
  };

  /** A kept 500 is replayed for the key's 24 hours: the SDK is told not to retry it (`Stripe-Should-Retry`). */
  const keptHeaders = (idempotencyKey: string, status: number): Record<string, string> => ({
    'idempotency-key': idempotencyKey,
    ...(status >= 500 ? { 'stripe-should-retry': 'false' } : {}),
  });

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const method = incoming.method ?? 'GET';
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const idempotencyKey =
      method === 'POST' ? ((incoming.headers['idempotency-key'] as string | undefined) ?? null) : null;
    const requestId = stripeId('req');
    try {
      const body = await readBody(incoming);
      if (AUTHENTICATION_PAGE.test(url.pathname)) {
        request = { id: null, idempotencyKey: null };
        return authenticationPage(resources, { method, path: url.pathname, baseUrl }, response, answer);
      }
      if (url.pathname.startsWith('/_stand-in/')) {
        needSecret(roleOf(incoming, {}));
        return answer(response, 200, JSON.stringify((await control(method, url.pathname, url, body)) ?? { ok: true }));
      }
      const form = decodeForm(method === 'GET' ? url.search.slice(1) : body);
      const role = roleOf(incoming, form);
      const route = `${method} ${url.pathname}`;
      const fault = faults.forCall(route, form, idempotencyKey);
      // Failing before it acts (Stripe down, a timeout at its edge): nothing kept, a retry with the key acts.
      if (fault && !fault.whileExecuting) throw faults.injected(fault);
      const print = fingerprint(form);
      const saved = idempotencyKey ? savedAnswer(idempotencyKey) : undefined;
      if (idempotencyKey && saved) {
        if (saved.route !== route) throw idempotencyOtherEndpoint(idempotencyKey, saved.route, route);
        if (saved.fingerprint !== print) throw idempotencyConflict(idempotencyKey);
        return answer(response, saved.status, saved.body, {
          ...keptHeaders(idempotencyKey, saved.status),
          'idempotent-replayed': 'true',
          'original-request': saved.requestId,
        });
      }
      // Set with no await before the route: the events it emits name this request.
      request = { id: requestId, idempotencyKey };
      const outcome = execute(route, () => stripeRoute(method, url.pathname, form, role), fault, requestId);
      if (!idempotencyKey) return answer(response, outcome.status, outcome.body);
      if (outcome.executed)
        replays.set(idempotencyKey, { route, fingerprint: print, ...outcome, requestId, savedAt: now() });
      return answer(response, outcome.status, outcome.body, {
        'idempotency-key': idempotencyKey,
        ...(outcome.executed ? keptHeaders(idempotencyKey, outcome.status) : {}),
      });
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
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
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
