import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../bin/local/stripe/server.ts';
import { confirmAsBrowser, standInControl, stripeSdk } from '../support/stripe.ts';

/**
 * The Stripe stand-in (bin/local/stripe/) driven by the real SDK, as the service drives it, and confirmed as
 * Stripe.js confirms. Its own instance, so the instance-wide switches touch no other file's payments; a
 * receiver here checks every delivery with the SDK's `constructEvent`.
 */
let standIn: StripeStandIn;
let stripe: Stripe;
let base: URL;
const received: Stripe.Event[] = [];
const refusedSignatures: string[] = [];
let receiver: ReturnType<typeof createServer>;
let receiverUrl: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  base = new URL(standIn.baseUrl);
  stripe = stripeSdk(standIn.keys.secretKey, base);
  receiver = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      received.push(
        stripe.webhooks.constructEvent(
          Buffer.concat(chunks),
          String(request.headers['stripe-signature']),
          standIn.keys.webhookSecret,
          300,
        ),
      );
      response.writeHead(200).end('{"received":true}');
    } catch (error) {
      refusedSignatures.push((error as Error).message);
      response.writeHead(400).end();
    }
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  standIn.webhooks.configure({ url: receiverUrl });
});

afterAll(async () => {
  receiver.closeAllConnections();
  receiver.close();
  await standIn.close();
});

beforeEach(() => {
  received.length = 0;
  refusedSignatures.length = 0;
});

const keys = () => standIn.keys;
const newIntent = (idempotencyKey = crypto.randomUUID(), amount = 2500) =>
  stripe.paymentIntents.create(
    {
      amount,
      currency: 'EUR',
      metadata: { orderId: '41', reservationId: '9' },
      automatic_payment_methods: { enabled: true },
    },
    { idempotencyKey },
  );
const confirm = (intent: Stripe.PaymentIntent, card: string) =>
  confirmAsBrowser(keys(), { id: intent.id, clientSecret: intent.client_secret! }, card, base);
const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  standInControl(keys(), method, path, body, base);
const typesFor = (intent: string) =>
  received
    .filter(
      (e) =>
        (e.data.object as { id?: string; payment_intent?: string }).id === intent ||
        (e.data.object as { payment_intent?: string }).payment_intent === intent,
    )
    .map((e) => e.type);
/** The types of an intent's events in the order the stand-in emitted them (deliveries may arrive in another). */
const emitted = async (intent: string): Promise<string[]> =>
  (await control('GET', `events?payment_intent=${intent}`)).data.map((e: Stripe.Event) => e.type);

describe('PaymentIntents', () => {
  it('creates one with the amount, lower-case currency and metadata, retrievable by the secret key', async () => {
    const intent = await newIntent();
    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 2500,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { orderId: '41', reservationId: '9' },
      livemode: false,
    });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect((await stripe.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
  });

  it('succeeds with pm_card_visa confirmed as Stripe.js does, and says so by a signed payment_intent.succeeded', async () => {
    const intent = await newIntent();
    const confirmed = await confirm(intent, 'pm_card_visa');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: intent.id, status: 'succeeded', amount_received: 2500 });
    expect(confirmed.body.metadata).toBeUndefined(); // a publishable key sees no metadata
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual(['payment_intent.succeeded']);
    expect(refusedSignatures).toEqual([]);
    expect((await stripe.paymentIntents.retrieve(intent.id)).latest_charge).toMatch(/^ch_/);
  });

  it('lets a page on any origin read its answers, as api.stripe.com does (the portal confirms from its own)', async () => {
    const intent = await newIntent();
    const query = new URLSearchParams({ key: keys().publishableKey, client_secret: intent.client_secret! });
    const answer = await fetch(new URL(`/v1/payment_intents/${intent.id}?${query}`, base), {
      headers: { origin: 'http://localhost:5174' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("declines pm_card_chargeDeclined with Stripe's card_error, then takes another card", async () => {
    const intent = await newIntent();
    const declined = await confirm(intent, 'pm_card_chargeDeclined');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    expect(declined.body.error.payment_intent).toMatchObject({ id: intent.id, status: 'requires_payment_method' });
    // The SDK's own class for it, server-side.
    await expect(
      stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((await confirm(intent, 'pm_card_visa')).body.status).toBe('succeeded');
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.payment_failed',
      'payment_intent.succeeded',
    ]);
  });

  it("refuses a confirm with the publishable key and another intent's client secret, and any wrong key", async () => {
    const [intent, other] = [await newIntent(), await newIntent()];
    const wrong = await confirmAsBrowser(
      keys(),
      { id: intent.id, clientSecret: other.client_secret! },
      'pm_card_visa',
      base,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ type: 'invalid_request_error', param: 'client_secret' });
    const badKey = await confirmAsBrowser(
      { publishableKey: 'pk_test_nope' },
      { id: intent.id, clientSecret: intent.client_secret! },
      'pm_card_visa',
      base,
    );
    expect(badKey.status).toBe(401);
    await expect(stripeSdk('sk_test_nope', base).paymentIntents.retrieve(intent.id)).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    // The publishable key cannot create (secret-key calls only).
    await expect(
      stripeSdk(keys().publishableKey, base).paymentIntents.create({ amount: 100, currency: 'eur' }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
  });

  it('cancels an unpaid one, and refuses to cancel a paid one', async () => {
    const unpaid = await newIntent();
    expect((await stripe.paymentIntents.cancel(unpaid.id, {}, { idempotencyKey: crypto.randomUUID() })).status).toBe(
      'canceled',
    );
    const paid = await newIntent();
    await confirm(paid, 'pm_card_visa');
    await expect(stripe.paymentIntents.cancel(paid.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
  });
});

describe('Idempotency-Key', () => {
  it('answers a replay with the first answer, and a reuse with other parameters with idempotency_error', async () => {
    const key = crypto.randomUUID();
    const first = await newIntent(key);
    const replay = await newIntent(key);
    expect(replay.id).toBe(first.id);
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    await expect(newIntent(key, 9900)).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(
      standIn.webhooks.events.filter((e) => (e.data as { object: { id: string } }).object.id === first.id),
    ).toEqual([]);
  });
});

describe('refunds', () => {
  it('refunds a paid intent in full once (a replay answers the same refund), with charge.refunded', async () => {
    const intent = await newIntent();
    await confirm(intent, 'pm_card_visa');
    const key = crypto.randomUUID();
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key });
    expect(refund).toMatchObject({ object: 'refund', amount: 2500, status: 'succeeded', payment_intent: intent.id });
    expect((await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key })).id).toBe(refund.id);
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
    await control('POST', 'settle');
    expect(await emitted(intent.id)).toEqual(['payment_intent.succeeded', 'refund.created', 'charge.refunded']);
    const refunded = received.find((e) => e.type === 'charge.refunded')!.data.object as Stripe.Charge;
    expect(refunded).toMatchObject({ refunded: true, amount_refunded: 2500 });
  });

  it('disputes a pm_card_createDispute payment after it succeeds, refuses to refund it, and moves the dispute on', async () => {
    const intent = await newIntent();
    expect((await confirm(intent, 'pm_card_createDispute')).body.status).toBe('succeeded');
    await control('POST', 'settle');
    expect(await emitted(intent.id)).toEqual(['payment_intent.succeeded', 'charge.dispute.created']);
    const dispute = received.find((e) => e.type === 'charge.dispute.created')!.data.object as Stripe.Dispute;
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 2500,
      currency: 'eur',
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
    });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_disputed',
    });
    expect(
      (await control('GET', `disputes?payment_intent=${intent.id}`)).data.map((d: Stripe.Dispute) => d.id),
    ).toEqual([dispute.id]);
    await control('POST', `disputes/${dispute.id}`, { status: 'under_review' });
    await control('POST', `disputes/${dispute.id}`, { status: 'won' });
    await expect(control('POST', `disputes/${dispute.id}`, { status: 'lost' })).rejects.toThrow(/closed/);
    await control('POST', 'settle');
    expect((await emitted(intent.id)).slice(2)).toEqual(['charge.dispute.updated', 'charge.dispute.closed']);
  });

  it('makes a pm_card_refundFail refund succeeded, then fails it and says so as Stripe does', async () => {
    const intent = await newIntent();
    await confirm(intent, 'pm_card_refundFail');
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund.status).toBe('succeeded');
    await control('POST', 'settle');
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
    expect(await emitted(intent.id)).toEqual([
      'payment_intent.succeeded',
      'refund.created',
      'charge.refunded',
      'refund.updated',
      'refund.failed',
      'charge.refund.updated',
    ]);
    const failed = received.find((e) => e.type === 'refund.failed')!.data.object as Stripe.Refund;
    expect(failed).toMatchObject({ id: refund.id, status: 'failed' });
  });

  it("lists a charge's or an intent's refunds, newest first", async () => {
    const intent = await newIntent();
    await confirm(intent, 'pm_card_visa');
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    const byIntent = await stripe.refunds.list({ payment_intent: intent.id });
    expect(byIntent).toMatchObject({ object: 'list', has_more: false });
    expect(byIntent.data.map((r) => r.id)).toEqual([refund.id]);
    expect((await stripe.refunds.list({ charge: refund.charge as string, limit: 1 })).data).toEqual([refund]);
    expect((await stripe.refunds.list({ payment_intent: (await newIntent()).id })).data).toEqual([]);
  });

  it('fails a route as told (injected) for the calls sent with one key only, keeping nothing under it, so the retry acts', async () => {
    const [intent, other] = [await newIntent(), await newIntent()];
    await confirm(intent, 'pm_card_visa');
    await confirm(other, 'pm_card_visa');
    const sdk = new Stripe(keys().secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const key = crypto.randomUUID();
    // Scoped by the key, as a test fails its own order's refund beside other files' (an unscoped fault fails anyone's).
    await control('POST', 'faults', { route: 'POST /v1/refunds', idempotencyKey: key, status: 500, times: 1 });
    const beside = await sdk.refunds.create({ payment_intent: other.id }, { idempotencyKey: crypto.randomUUID() });
    expect(beside.status).toBe('succeeded');
    await expect(sdk.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key })).rejects.toMatchObject({
      type: 'StripeAPIError',
      statusCode: 500,
    });
    expect((await sdk.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key })).status).toBe('succeeded');
  });

  it('refuses to refund an intent that was never paid', async () => {
    const intent = await newIntent();
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_not_refundable',
    });
  });
});

describe('delivery switches (per intent)', () => {
  it('twice: the same event, same id, delivered two times', async () => {
    const intent = await newIntent();
    await control('POST', `payment_intents/${intent.id}/webhooks`, { twice: true });
    await confirm(intent, 'pm_card_visa');
    await control('POST', 'settle');
    const succeeded = received.filter(
      (e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === intent.id,
    );
    expect(succeeded).toHaveLength(2);
    expect(succeeded[0]!.id).toBe(succeeded[1]!.id);
  });

  it('out of order: an event waits for the next one and arrives after it', async () => {
    const intent = await newIntent();
    await control('POST', `payment_intents/${intent.id}/webhooks`, { outOfOrder: true });
    await confirm(intent, 'pm_card_chargeDeclined');
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual([]); // the failure waits for its successor
    await confirm(intent, 'pm_card_visa');
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual(['payment_intent.succeeded', 'payment_intent.payment_failed']);
  });

  it('late: held until due (or released), listed as held meanwhile', async () => {
    const intent = await newIntent();
    await control('POST', `payment_intents/${intent.id}/webhooks`, { delayMs: 600_000 });
    await confirm(intent, 'pm_card_visa');
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual([]);
    const held = await control('GET', `deliveries?payment_intent=${intent.id}`);
    expect(held.data).toEqual([expect.objectContaining({ type: 'payment_intent.succeeded', state: 'held' })]);
    await control('POST', 'release');
    expect(typesFor(intent.id)).toEqual(['payment_intent.succeeded']);
    const sent = await control('GET', `deliveries?payment_intent=${intent.id}`);
    expect(sent.data).toEqual([expect.objectContaining({ state: 'sent', status: 200, url: receiverUrl })]);
  });

  it('stale: signed with an old timestamp, which constructEvent refuses', async () => {
    const intent = await newIntent();
    await control('POST', `payment_intents/${intent.id}/webhooks`, { staleBySeconds: 600 });
    await confirm(intent, 'pm_card_visa');
    await control('POST', 'settle');
    expect(typesFor(intent.id)).toEqual([]);
    expect(refusedSignatures).toEqual([expect.stringMatching(/tolerance/i)]);
  });

  it('lists the events of an intent and resends one', async () => {
    const intent = await newIntent();
    await confirm(intent, 'pm_card_visa');
    await control('POST', 'settle');
    const { data: events } = await control('GET', `events?payment_intent=${intent.id}`);
    expect(events.map((e: Stripe.Event) => e.type)).toEqual(['payment_intent.succeeded']);
    await control('POST', `events/${events[0].id}/resend`);
    await control('POST', 'settle');
    expect(received.filter((e) => e.id === events[0].id)).toHaveLength(2);
  });
});
