import Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import { METRIC, metrics } from '#shared/services/metrics';
import { createPaymentIntent } from '#shared/selling/services/payments';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { checkedOut, payAsBrowser, refundsAtStripe } from '../support/paid-checkout.ts';
import { confirmAsBrowser, standInControl, stripeSdk, WEBHOOK_PATH, useStripeStandIn } from '../support/stripe.ts';
import { adminToken } from '../support/tokens.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';

/**
 * Which payment pays an order (shared/README.md "Payments"), over HTTP through the webhook route and the Stripe
 * stand-in: only the PaymentIntent the checkout stored on the order, for the order's amount and currency; any other
 * succeeded payment naming it is recorded on it, counted and refunded, and the order's own payment still pays it.
 * Signed events of odd types or objects are acknowledged and change nothing.
 */
const { keys, relay } = useStripeStandIn();
const signer = new Stripe('sk_test_signer_only').webhooks;

afterEach(() => vi.restoreAllMocks());

/** Posts `event` to the route as Stripe does, signed with the stage's webhook secret. */
async function deliver(fields: Record<string, unknown>) {
  const body = JSON.stringify({
    id: `evt_test_${crypto.randomUUID().slice(0, 8)}`,
    object: 'event',
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    ...fields,
  });
  return call('POST', WEBHOOK_PATH, {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signer.generateTestHeaderString({ payload: body, secret: keys.webhookSecret }),
    },
  });
}

/** The unmatched payments the route counted while `work` ran (the business metric the alarm watches). */
async function unmatchedCounted(work: () => Promise<unknown>): Promise<number> {
  const added = vi.spyOn(metrics, 'addMetric');
  await work();
  return added.mock.calls.filter(([name]) => name === METRIC.paymentUnmatched).length;
}

describe('payment_intent.succeeded pays only its own order', () => {
  it("another intent (50 USD) naming a €1,000 order does not pay it and is refunded; the order's own payment then pays it", async () => {
    const order = await checkedOut(keys, relay, { price: 1000 });
    const stored = (await getOrder(Number(order.orderId)))!;
    expect(stored.checkout?.paymentIntentId).toBe(order.intentId);

    const other = await createPaymentIntent(
      {
        orderId: order.orderId,
        reservationId: stored.checkout!.reservationId,
        amount: 5000,
        currency: 'USD',
        customerEmail: 'someone@example.test',
      },
      `test-other-${crypto.randomUUID()}`,
    );
    await standInControl(keys, 'POST', `payment_intents/${other.id}/webhooks`, { url: relay.url });
    const counted = await unmatchedCounted(async () => {
      expect((await confirmAsBrowser(keys, other, 'pm_card_visa')).body.status).toBe('succeeded');
      await standInControl(keys, 'POST', 'settle');
    });

    expect(counted).toBe(1);
    const [refund] = await refundsAtStripe(keys, other.id);
    expect(refund).toMatchObject({ amount: 5000, status: 'succeeded' });
    const after = (await getOrder(Number(order.orderId)))!;
    expect(after.status).toBe('awaiting_payment');
    // The refund's own event (charge.refunded, naming the order too) is not the order's money either.
    expect(after.transactions).toEqual([]);
    expect(after.paymentProblems).toEqual([
      {
        intentId: other.id,
        reason: 'other_intent',
        amount: 50,
        currency: 'USD',
        at: expect.any(String),
        refundId: refund!.id,
      },
    ]);
    // Staff see it on the order, with its refund.
    const staff = await call('GET', `/api/v2/orders/${order.orderId}`, { token: await adminToken() });
    expect(staff.status, staff.raw).toBe(200);
    expect(staff.body.data.payment).toMatchObject({
      paid: 0,
      transactions: [],
      problems: [{ intentId: other.id, reason: 'other_intent', amount: 50, currency: 'USD', refundId: refund!.id }],
    });
    const answered = relay.answers.filter(({ event }) => JSON.stringify(event.data.object).includes(other.id));
    expect(answered.map(({ event }) => event.type).sort()).toEqual([
      'charge.refunded',
      'payment_intent.succeeded',
      'refund.created',
    ]);
    expect(answered.every(({ answer }) => answer.status === 200)).toBe(true);

    await payAsBrowser(keys, order.intent);
    const paid = await claimedThenIssued(order.orderId);
    expect(paid.status).toBe('active');
    expect(paid.transactions).toMatchObject([{ amount: 1000, processor: 'stripe', reference: order.intentId }]);
    expect(await refundsAtStripe(keys, order.intentId)).toEqual([]);
  });

  it("an event of the order's own intent with another amount or currency does not pay it; its real payment does", async () => {
    for (const [field, value, reason] of [
      ['amount_received', 999, 'amount'],
      ['currency', 'usd', 'currency'],
    ] as const) {
      const order = await checkedOut(keys, relay, { price: 25 });
      const intent = await stripeSdk(keys.secretKey).paymentIntents.retrieve(order.intentId);
      const object = { ...intent, status: 'succeeded', amount_received: intent.amount, [field]: value };
      const answer = await deliver({ type: 'payment_intent.succeeded', data: { object } });
      expect(answer.status, answer.raw).toBe(200);

      const after = (await getOrder(Number(order.orderId)))!;
      expect(after).toMatchObject({ status: 'awaiting_payment', transactions: [] });
      // Stripe cannot refund a payment it has not taken: recorded for staff, the event acknowledged.
      expect(after.paymentProblems).toEqual([
        expect.objectContaining({
          intentId: order.intentId,
          reason,
          refundId: null,
          refundRefused: expect.any(String),
        }),
      ]);

      await payAsBrowser(keys, order.intent);
      expect(await claimedThenIssued(order.orderId)).toMatchObject({
        status: 'active',
        transactions: [{ amount: 25, reference: order.intentId }],
      });
    }
  });

  it('a succeeded payment naming no order (no metadata, an unknown order) is refunded in full, once however often delivered', async () => {
    for (const metadata of [{}, { orderId: '999999999' }] as Record<string, string>[]) {
      const intent = await stripeSdk(keys.secretKey).paymentIntents.create(
        { amount: 1500, currency: 'eur', metadata },
        { idempotencyKey: crypto.randomUUID() },
      );
      await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url, twice: true });
      await confirmAsBrowser(keys, { id: intent.id, clientSecret: intent.client_secret! }, 'pm_card_visa');
      await standInControl(keys, 'POST', 'settle');
      expect(await refundsAtStripe(keys, intent.id)).toEqual([expect.objectContaining({ amount: 1500 })]);
      const answers = relay.answers.filter(({ event }) => JSON.stringify(event.data.object).includes(intent.id));
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.every(({ answer }) => answer.status === 200)).toBe(true);
    }
  });
});

describe('odd signed events', () => {
  it('acknowledge odd types, null and malformed objects, an unknown payment and a charge of an unknown intent with 2xx, writing nothing', async () => {
    const events: Record<string, unknown>[] = [
      ...['__proto__', 'hasOwnProperty', 'constructor', 'toString'].map((type) => ({
        type,
        data: { object: { id: 'pi_odd', object: 'payment_intent' } },
      })),
      { type: 'payment_intent.succeeded', data: { object: null } },
      { type: 'payment_intent.succeeded', data: { object: 'pi_text' } },
      { type: 'payment_intent.succeeded', data: { object: [] } },
      { type: 'payment_intent.succeeded', data: null },
      {
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_odd', object: 'payment_intent', amount_received: '12' } },
      },
      { type: 'payment_intent.payment_failed', data: { object: null } },
      { type: 42, data: { object: null } },
      { type: 'payment_intent.succeeded', created: 'yesterday', data: { object: { id: 'pi_odd' } } },
      { type: 'charge.refunded', data: { object: null } },
      // Stripe answers resource_missing for the intent and for the charge's refunds.
      {
        type: 'charge.refunded',
        data: { object: { id: 'ch_unknown', object: 'charge', payment_intent: 'pi_unknown', metadata: {} } },
      },
      // No metadata: no order to pay; the refund Stripe refuses (no such payment) is logged and alarmed.
      {
        type: 'payment_intent.succeeded',
        data: {
          object: { id: 'pi_unknown', object: 'payment_intent', amount: 2500, amount_received: 2500, currency: 'eur' },
        },
      },
    ];
    for (const event of events) {
      let status = 0;
      const sent = await commandsSent(async () => {
        const answer = await deliver(event);
        status = answer.status;
        expect(answer.body, JSON.stringify(event)).toEqual({ received: true });
      });
      expect(status, JSON.stringify(event)).toBe(200);
      expect(
        sent.filter((command) => !/^(Get|BatchGet|Query)/.test(command)),
        JSON.stringify(event),
      ).toEqual([]);
    }
    // Signed, but no event at all: refused as a body, not a 5xx.
    for (const body of ['null', '[]', '"evt"']) {
      const answer = await call('POST', WEBHOOK_PATH, {
        body,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signer.generateTestHeaderString({ payload: body, secret: keys.webhookSecret }),
        },
      });
      expect(answer.status, body).toBe(400);
    }
  });
});

describe("the checkout's stored PaymentIntent", () => {
  it('asks for cards only, and a retry of the checkout answers the stored intent without creating it again', async () => {
    const order = await checkedOut(keys, relay);
    const intent = await stripeSdk(keys.secretKey).paymentIntents.retrieve(order.intentId);
    expect(intent.allowed_payment_method_types).toEqual(['card']);
    expect(intent.payment_method_types).toEqual(['card']);
    expect(intent.automatic_payment_methods).toBeNull();

    // A create replayed with the order's key would fail now: the retry must read the stored id instead.
    await standInControl(keys, 'POST', 'faults', {
      route: 'POST /v1/payment_intents',
      idempotencyKey: `order-${order.orderId}-payment`,
      status: 400,
      times: 10,
    });
    const { token, reservationId } = order;
    const again = await call('POST', `/api/v2/my-account/reservations/${reservationId}/checkout`, {
      token,
      body: { attendees: [{ firstName: 'Grace0', lastName: 'Hopper', email: 'grace0@example.com' }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(again.status, again.raw).toBe(201);
    expect(again.body.data.payment.clientSecret).toBe(order.intent.clientSecret);

    // The release cancels the stored intent at Stripe, with no create replayed either.
    const released = await call('DELETE', `/api/v2/my-account/reservations/${reservationId}`, { token });
    expect(released.status, released.raw).toBe(200);
    expect((await getOrder(Number(order.orderId)))!.status).toBe('expired');
    const canceled = await stripeSdk(keys.secretKey).paymentIntents.retrieve(order.intentId);
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
  });
});
