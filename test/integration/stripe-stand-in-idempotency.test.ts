import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmAsBrowser, ownStandIn, standInControl } from '../support/stripe.ts';

/**
 * Idempotency keys as Stripe keeps them (https://docs.stripe.com/api/idempotent_requests): the first answer of a
 * request whose endpoint began executing, a 500 too, is the answer to every retry with its key for 24 hours; a
 * request refused before executing (its parameters) keeps nothing; the key with another endpoint or other
 * parameters is an `idempotency_error`. The stand-in's own clock here, moved by the test.
 */
let own: Awaited<ReturnType<typeof ownStandIn>>;
let clock = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  own = await ownStandIn({ now: () => clock });
});
afterAll(() => own.close());

const HOUR = 60 * 60;
const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  standInControl(own.standIn.keys, method, path, body, own.base);
const paidIntent = async () => {
  const intent = await own.stripe.paymentIntents.create({ amount: 4000, currency: 'eur' });
  const { status } = await confirmAsBrowser(
    own.standIn.keys,
    { id: intent.id, clientSecret: intent.client_secret! },
    'pm_card_visa',
    own.base,
  );
  expect(status).toBe(200);
  return intent;
};
/** A raw call, to read the status and headers the SDK hides. */
const post = (path: string, form: Record<string, string>, idempotencyKey: string) =>
  fetch(new URL(path, own.base), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${own.standIn.keys.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': idempotencyKey,
    },
    body: new URLSearchParams(form),
  });

describe('a 500 after the request began executing', () => {
  it('is kept under its key: every retry with the key gets the same 500 (not retried by the SDK), no refund made', async () => {
    const intent = await paidIntent();
    const key = crypto.randomUUID();
    await control('POST', 'faults', {
      route: 'POST /v1/refunds',
      idempotencyKey: key,
      status: 500,
      times: 1,
      whileExecuting: true,
    });
    const first = await post('/v1/refunds', { payment_intent: intent.id }, key);
    expect(first.status).toBe(500);
    expect(first.headers.get('stripe-should-retry')).toBe('false');
    const firstBody = await first.text();

    const retried = await post('/v1/refunds', { payment_intent: intent.id }, key);
    expect(retried.status).toBe(500);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await retried.text()).toBe(firstBody);
    // The SDK, retrying as the service's does, is told not to: one call, the same 500.
    const sdk = new Stripe(own.standIn.keys.secretKey, {
      host: own.base.hostname,
      port: Number(own.base.port),
      protocol: 'http',
      maxNetworkRetries: 2,
    });
    await expect(sdk.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key })).rejects.toMatchObject({
      type: 'StripeAPIError',
      statusCode: 500,
    });
    expect((await own.stripe.refunds.list({ payment_intent: intent.id })).data).toEqual([]);
    // Another key refunds it.
    expect((await own.stripe.refunds.create({ payment_intent: intent.id })).status).toBe('succeeded');
  });

  it('is forgotten after 24 hours: the key then makes a new request', async () => {
    const intent = await paidIntent();
    const key = crypto.randomUUID();
    await control('POST', 'faults', {
      route: 'POST /v1/refunds',
      idempotencyKey: key,
      status: 500,
      times: 1,
      whileExecuting: true,
    });
    expect((await post('/v1/refunds', { payment_intent: intent.id }, key)).status).toBe(500);
    clock += 23 * HOUR;
    expect((await post('/v1/refunds', { payment_intent: intent.id }, key)).status).toBe(500);
    clock += HOUR;
    const later = await post('/v1/refunds', { payment_intent: intent.id }, key);
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect((await own.stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(1);
  });

  it('a card decline is kept too (the endpoint executed): the retry with the key replays the 402', async () => {
    const intent = await own.stripe.paymentIntents.create({ amount: 4000, currency: 'eur' });
    const key = crypto.randomUUID();
    const path = `/v1/payment_intents/${intent.id}/confirm`;
    expect((await post(path, { payment_method: 'pm_card_chargeDeclined' }, key)).status).toBe(402);
    const replayed = await post(path, { payment_method: 'pm_card_chargeDeclined' }, key);
    expect(replayed.status).toBe(402);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await own.eventsOf(intent.id)).map((event) => event.type)).toEqual(['payment_intent.payment_failed']);
  });
});

describe('a request refused before executing', () => {
  it('keeps nothing: an injected failure before execution or a bad parameter, then the key acts', async () => {
    const intent = await paidIntent();
    const key = crypto.randomUUID();
    await control('POST', 'faults', { route: 'POST /v1/refunds', idempotencyKey: key, status: 503, times: 1 });
    const down = await post('/v1/refunds', { payment_intent: intent.id }, key);
    expect(down.status).toBe(503);
    expect(down.headers.get('stripe-should-retry')).toBeNull();
    const unknown = await post('/v1/refunds', { payment_intent: intent.id, colour: 'red' }, key);
    expect(unknown.status).toBe(400);
    const refunded = await post('/v1/refunds', { payment_intent: intent.id }, key);
    expect(refunded.status).toBe(200);
    expect(refunded.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('the same key reused', () => {
  it('with other parameters or on another endpoint is an idempotency_error, and changes nothing', async () => {
    const intent = await paidIntent();
    const key = crypto.randomUUID();
    const refund = await own.stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key });
    await expect(
      own.stripe.refunds.create({ payment_intent: intent.id, reason: 'duplicate' }, { idempotencyKey: key }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    const elsewhere = own.stripe.paymentIntents.create({ amount: 4000, currency: 'eur' }, { idempotencyKey: key });
    await expect(elsewhere).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await expect(elsewhere).rejects.toMatchObject({ message: expect.stringContaining('same endpoint') });
    expect((await own.stripe.refunds.list({ payment_intent: intent.id })).data.map((r) => r.id)).toEqual([refund.id]);
  });
});
