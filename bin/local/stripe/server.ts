import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  authentication,
  idempotencyConflict,
  idempotencyOtherEndpoint,
  invalidParameter,
  invalidRequest,
  RefusedBeforeExecution,
  StripeFailure,
  unrecognizedUrl,
} from './errors.ts';
import { decodeForm, fingerprint, type Form } from './form.ts';
import type Stripe from 'stripe';
import { publicView, Resources, stripeId } from './resources.ts';
import { type DeliverySwitches, type EventRequest, Webhooks } from './webhooks.ts';

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
  /** The stand-in's clock in Unix seconds (objects' `created`, the idempotency keys' 24 hours): a test moves it. */
  now?: () => number;
}

const MAX_BODY = 64 * 1024;
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

/**
 * An injected failure (`POST /_stand-in/faults`): `status` for the next `times` calls; `whileExecuting`: the
 * request began executing, then failed, so the answer is kept under its idempotency key as Stripe keeps it.
 */
interface Fault {
  status: number;
  times: number;
  whileExecuting: boolean;
}

/** How long Stripe keeps an idempotency key's answer: at least 24 hours, then the key makes a new request. */
const IDEMPOTENCY_KEY_SECONDS = 24 * 60 * 60;

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
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const webhooks = new Webhooks(keys.webhookSecret, options.deliveries, now);
  let baseUrl = '';
  let request: EventRequest = { id: null, idempotencyKey: null };
  const resources = new Resources((type, object, intent) => webhooks.emit(type, object, intent, request), {
    now,
    authenticationUrl: (id) => `${baseUrl}/3d_secure_2_test/${id}`,
  });
  const replays = new Map<string, Stored>();
  /**
   * Injected failures (`POST /_stand-in/faults` `{route: 'POST /v1/refunds', status: 500, times: 2}`): the next
   * `times` calls of the route answer `status` as Stripe's API failing before it acts: nothing done, nothing kept
   * under the idempotency key (a retry with the key acts). `times: 0` clears. With `paymentIntent`, only the calls
   * naming that intent (`payment_intent`); with `idempotencyKey`, only the calls sent with that key: a test fails its
   * own payment's or order's calls, not another's running beside it.
   */
  const faults = new Map<string, Fault>();
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
      return resources.refund(form);
    }
    if (method === 'GET' && path === '/v1/refunds') {
      needSecret(role);
      return resources.listRefunds(form);
    }
    const paymentMethod = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (method === 'GET' && paymentMethod) {
      needSecret(role);
      return resources.paymentMethod(paymentMethod[1]!);
    }
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && refund) {
      needSecret(role);
      return resources.refundById(refund[1]!);
    }
    throw unrecognizedUrl(method, path);
  };

  /** The test controls (JSON): switches, the events and deliveries so far, resend, settle, release. */
  const control = async (method: string, path: string, url: URL, body: string): Promise<unknown> => {
    const input = body ? (JSON.parse(body) as DeliverySwitches & { url?: string }) : {};
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
        whileExecuting = false,
      } = input as Partial<Fault> & { route?: string; paymentIntent?: string; idempotencyKey?: string };
      if (!route) throw invalidRequest('A fault names its route (`POST /v1/refunds`).', { param: 'route' });
      faults.set(faultKey(route, idempotencyKey === undefined ? paymentIntent : `key ${idempotencyKey}`), {
        status,
        times,
        whileExecuting,
      });
      return;
    }
    if (method === 'POST' && path === '/_stand-in/settle') return webhooks.settle();
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

  /** The fault set for this call, if any is left: one for its intent or its key first, then the route's. */
  const faultFor = (route: string, form: Form, idempotencyKey: string | null): Fault | undefined => {
    const named = [faultKey(route, form.payment_intent), faultKey(route, `key ${idempotencyKey}`)]
      .map((key) => faults.get(key))
      .find((candidate) => candidate?.times);
    const fault = named ?? faults.get(route);
    return fault && fault.times > 0 ? fault : undefined;
  };
  const injected = (fault: Fault) => {
    fault.times--;
    return new StripeFailure(fault.status, { type: 'api_error', message: 'An injected failure of the stand-in.' });
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
    fault: Fault | undefined,
    requestId: string,
  ): { status: number; body: string; executed: boolean } => {
    try {
      if (fault?.whileExecuting) throw injected(fault);
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
      if (AUTHENTICATION_PAGE.test(url.pathname)) return authenticationPage(method, url.pathname, response);
      if (url.pathname.startsWith('/_stand-in/')) {
        needSecret(roleOf(incoming, {}));
        return answer(response, 200, JSON.stringify((await control(method, url.pathname, url, body)) ?? { ok: true }));
      }
      const form = decodeForm(method === 'GET' ? url.search.slice(1) : body);
      const role = roleOf(incoming, form);
      const route = `${method} ${url.pathname}`;
      const fault = faultFor(route, form, idempotencyKey);
      // Failing before it acts (Stripe down, a timeout at its edge): nothing kept, a retry with the key acts.
      if (fault && !fault.whileExecuting) throw injected(fault);
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

  /**
   * Stripe's 3-D Secure test page (as hooks.stripe.com's in test mode): the buyer's browser opens `next_action`'s
   * URL, and the page's two buttons complete or fail the authentication. No key: the id in the URL is the secret.
   * After the answer the browser goes back to the `return_url` given at confirm (with Stripe's query), if any.
   */
  const authenticationPage = (method: string, path: string, response: ServerResponse) => {
    const [, id, outcome] = AUTHENTICATION_PAGE.exec(path)!;
    if (method === 'GET' && !outcome) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(authenticationHtml(`${baseUrl}/3d_secure_2_test/${id}`));
    }
    if (method !== 'POST' || !outcome) throw unrecognizedUrl(method, path);
    request = { id: null, idempotencyKey: null };
    const { intent, returnUrl } = resources.authenticate(id!, outcome as 'complete' | 'fail');
    if (!returnUrl) return answer(response, 200, JSON.stringify({ payment_intent: intent.id, status: intent.status }));
    const back = new URL(returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', intent.client_secret ?? '');
    back.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
    response.writeHead(303, { location: back.href });
    return response.end();
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

function paymentIntentOf(event: Stripe.EventBase): unknown {
  const object = event.data.object as { id: string; object: string; payment_intent?: unknown };
  return object.object === 'payment_intent' ? object.id : object.payment_intent;
}

const AUTHENTICATION_PAGE = /^\/3d_secure_2_test\/([\w]+)(?:\/(complete|fail))?$/;

const authenticationHtml = (action: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body><h1>3D Secure 2 Test Page</h1>
<p>This test payment requires authentication (the local Stripe stand-in).</p>
<form method="post" action="${action}/complete"><button id="complete" type="submit">Complete</button></form>
<form method="post" action="${action}/fail"><button id="fail" type="submit">Fail</button></form>
</body></html>
`;
