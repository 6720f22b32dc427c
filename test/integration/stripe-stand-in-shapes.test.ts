import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmAsBrowser, ownStandIn, standInControl } from '../support/stripe.ts';
import { type ShapeProblem, sdkEventType, sdkShapes } from '../support/stripe-shapes.ts';

/**
 * Every answer and event of the stand-in the service uses, checked at run time against the shapes the official SDK
 * declares (generated from Stripe's OpenAPI document): no key Stripe never sends, none it always sends missing.
 * (bin/local/stripe/objects.ts types the same objects for the typecheck; this catches what a cast or a later
 * Object.assign lets through, the error bodies, and each event as a whole.)
 */
let own: Awaited<ReturnType<typeof ownStandIn>>;
let seen: Exercised[];
let shapes: ReturnType<typeof sdkShapes>;

beforeAll(async () => {
  own = await ownStandIn();
  seen = await exerciseEverything();
  // One reading of the SDK's declarations for the file (a few seconds): every shape either test checks against.
  shapes = sdkShapes([...new Set(['Stripe.Refund', ...seen.map((answer) => answer.shape)])]);
});
afterAll(() => own.close());

/** Each answer with the SDK type it must have; `publishable`: what Stripe.js sees, a part of the object. */
interface Exercised {
  what: string;
  body: unknown;
  shape: string;
  publishable?: boolean;
}

const raw = async (method: 'GET' | 'POST', path: string, form: Record<string, string> = {}, key?: string) => {
  const signed = key === undefined ? form : { ...form, key };
  const query = method === 'GET' ? `?${new URLSearchParams(signed)}` : '';
  const answer = await fetch(new URL(`${path}${query}`, own.base), {
    method,
    headers: {
      ...(key === undefined ? { authorization: `Bearer ${own.standIn.keys.secretKey}` } : {}),
      'content-type': 'application/x-www-form-urlencoded',
    },
    ...(method === 'POST' ? { body: new URLSearchParams(signed) } : {}),
  });
  return { status: answer.status, body: (await answer.json()) as any };
};

/** Calls every endpoint the service and the portal use, and the test cards' paths, keeping each answer. */
async function exerciseEverything(): Promise<Exercised[]> {
  const seen: Exercised[] = [];
  const keep = (what: string, body: unknown, shape: string, publishable = false) => {
    seen.push({ what, body, shape, publishable });
    return body as any;
  };
  const create = async () =>
    keep(
      'POST /v1/payment_intents',
      (
        await raw('POST', '/v1/payment_intents', {
          amount: '2500',
          currency: 'eur',
          'metadata[orderId]': '7',
          receipt_email: 'casey@demo.test',
          'automatic_payment_methods[enabled]': 'true',
          'automatic_payment_methods[allow_redirects]': 'never',
        })
      ).body,
      'Stripe.PaymentIntent',
    ) as Stripe.PaymentIntent;
  const browser = (intent: Stripe.PaymentIntent, card: string) =>
    confirmAsBrowser(own.standIn.keys, { id: intent.id, clientSecret: intent.client_secret! }, card, own.base);

  const paid = await create();
  keep(
    'GET /v1/payment_intents/{id}',
    (await raw('GET', `/v1/payment_intents/${paid.id}`)).body,
    'Stripe.PaymentIntent',
  );
  const asBrowser = await raw(
    'GET',
    `/v1/payment_intents/${paid.id}`,
    { client_secret: paid.client_secret! },
    own.standIn.keys.publishableKey,
  );
  keep('GET /v1/payment_intents/{id} (publishable key)', asBrowser.body, 'Stripe.PaymentIntent', true);
  keep('POST …/confirm (publishable key)', (await browser(paid, 'pm_card_visa')).body, 'Stripe.PaymentIntent', true);

  const serverSide = await create();
  keep(
    'POST …/confirm (secret key)',
    (await raw('POST', `/v1/payment_intents/${serverSide.id}/confirm`, { payment_method: 'pm_card_mastercard' })).body,
    'Stripe.PaymentIntent',
  );

  const declined = await create();
  const decline = await browser(declined, 'pm_card_chargeDeclined');
  expect(decline.status).toBe(402);
  keep('a card_error (402)', decline.body.error, 'Stripe.PaymentIntent.LastPaymentError');
  const unknown = await raw('POST', `/v1/payment_intents/${declined.id}/confirm`, { colour: 'red' });
  keep('an invalid_request_error (400)', unknown.body.error, 'Stripe.PaymentIntent.LastPaymentError');

  const authenticated = await create();
  const action = await raw('POST', `/v1/payment_intents/${authenticated.id}/confirm`, {
    payment_method: 'pm_card_threeDSecure2Required',
    return_url: 'http://localhost:5174/',
  });
  keep('POST …/confirm (requires_action)', action.body, 'Stripe.PaymentIntent');
  await fetch(`${action.body.next_action.redirect_to_url.url}/fail`, { method: 'POST', redirect: 'manual' });
  const again = await raw('POST', `/v1/payment_intents/${authenticated.id}/confirm`, {
    payment_method: 'pm_card_authenticationRequired',
    use_stripe_sdk: 'true',
  });
  keep('POST …/confirm (use_stripe_sdk)', again.body, 'Stripe.PaymentIntent');
  await fetch(`${again.body.next_action.use_stripe_sdk.stripe_js}/complete`, { method: 'POST' });
  keep(
    'GET /v1/payment_methods/{id}',
    (await raw('GET', `/v1/payment_methods/${again.body.payment_method}`)).body,
    'Stripe.PaymentMethod',
  );

  const abandoned = await create();
  keep(
    'POST …/cancel',
    (await raw('POST', `/v1/payment_intents/${abandoned.id}/cancel`, { cancellation_reason: 'abandoned' })).body,
    'Stripe.PaymentIntent',
  );

  const refund = keep(
    'POST /v1/refunds',
    (await raw('POST', '/v1/refunds', { payment_intent: paid.id })).body,
    'Stripe.Refund',
  ) as Stripe.Refund;
  keep('GET /v1/refunds/{id}', (await raw('GET', `/v1/refunds/${refund.id}`)).body, 'Stripe.Refund');
  keep(
    'GET /v1/refunds',
    (await raw('GET', '/v1/refunds', { payment_intent: paid.id, limit: '100' })).body,
    'Stripe.ApiList<Stripe.Refund>',
  );

  // What follows a payment: a dispute opened, moved on and closed; a refund refused for it; a refund failing later.
  const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    standInControl(own.standIn.keys, method, path, body, own.base);
  const disputed = await create();
  await raw('POST', `/v1/payment_intents/${disputed.id}/confirm`, { payment_method: 'pm_card_createDispute' });
  const refused = await raw('POST', '/v1/refunds', { payment_intent: disputed.id });
  expect(refused.body.error.code).toBe('charge_disputed');
  keep('a refund refused (charge_disputed)', refused.body.error, 'Stripe.PaymentIntent.LastPaymentError');
  const [dispute] = (await control('GET', `disputes?payment_intent=${disputed.id}`)).data as Stripe.Dispute[];
  keep(
    'POST /_stand-in/disputes/{id}',
    await control('POST', `disputes/${dispute!.id}`, { status: 'under_review' }),
    'Stripe.Dispute',
  );
  await control('POST', `disputes/${dispute!.id}`, { status: 'lost' });

  const refundFails = await create();
  await raw('POST', `/v1/payment_intents/${refundFails.id}/confirm`, { payment_method: 'pm_card_refundFail' });
  const failing = (await raw('POST', '/v1/refunds', { payment_intent: refundFails.id })).body as Stripe.Refund;
  await control('POST', 'settle');
  const failed = keep(
    'GET /v1/refunds/{id} (failed)',
    (await raw('GET', `/v1/refunds/${failing.id}`)).body,
    'Stripe.Refund',
  );
  expect(failed).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });

  for (const intent of [paid, serverSide, declined, authenticated, abandoned, disputed, refundFails])
    for (const event of await own.eventsOf(intent.id)) keep(`event ${event.type}`, event, sdkEventType(event.type));
  return seen;
}

describe("the stand-in's answers and events, against the SDK's declarations", () => {
  it('has every key Stripe sends and none it never sends, for each endpoint and event the service uses', () => {
    const problems = seen.flatMap(({ what, body, shape, publishable }) =>
      shapes
        .check(body, shape)
        // Stripe.js sees a part of the intent: nothing it does not declare, but not all of it.
        .filter((found) => !publishable || found.problem === 'not declared')
        .map((found) => `${what}: ${found.path} ${found.problem}`),
    );
    expect(problems).toEqual([]);
    // Each kind of event the checkout, the refunds and the disputes act on was seen (and so checked).
    expect(new Set(seen.filter((answer) => answer.what.startsWith('event')).map((answer) => answer.what))).toEqual(
      new Set([
        'event payment_intent.succeeded',
        'event payment_intent.payment_failed',
        'event payment_intent.requires_action',
        'event payment_intent.canceled',
        'event charge.refunded',
        'event refund.created',
        'event refund.updated',
        'event refund.failed',
        'event charge.refund.updated',
        'event charge.dispute.created',
        'event charge.dispute.updated',
        'event charge.dispute.closed',
      ]),
    );
  });

  it('finds a key Stripe never sends and a required one left out (the check can fail)', () => {
    const refund = {
      id: 're_1',
      object: 'refund',
      amount: 100,
      balance_transaction: null,
      charge: { id: 'ch_1', object: 'charge', colour: 'red' },
      created: 1,
      currency: 'eur',
      customer: null,
      customer_account: null,
      metadata: { anything: 'goes' },
      payment_intent: 'pi_1',
      payment_method: null,
      reason: null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      refunded_at: 5,
    };
    const problems: ShapeProblem[] = shapes.check(refund, 'Stripe.Refund');
    expect(problems).toContainEqual({ path: '$.refunded_at', problem: 'not declared' });
    expect(problems).toContainEqual({ path: '$.transfer_reversal', problem: 'missing' });
    expect(problems).toContainEqual({ path: '$.charge.colour', problem: 'not declared' });
    expect(problems).toContainEqual({ path: '$.charge.amount', problem: 'missing' });
    expect(problems.some((found) => found.path.startsWith('$.metadata'))).toBe(false);
  });
});
