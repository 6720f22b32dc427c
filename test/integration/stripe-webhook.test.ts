import { randomInt } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createPaymentIntent } from '#shared/selling/services/payments';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { refundsAtStripe } from '../support/paid-checkout.ts';
import { confirmAsBrowser, standInControl, WEBHOOK_PATH, useStripeStandIn } from '../support/stripe.ts';

/**
 * `POST /payments/stripe/webhook` over the API, fed by the Stripe stand-in of the tests' stack: payments made
 * by the service's own client (shared/selling/services/payments.ts, the real SDK), confirmed as a browser does, and
 * the stand-in's signed deliveries relayed to the route. Unsigned, forged, stale and other-mode events are
 * refused with 400 and the route sends nothing to the table.
 */
const { keys, relay } = useStripeStandIn();
const signer = new Stripe('sk_test_signer_only').webhooks;

const payment = (orderId: number) =>
  createPaymentIntent(
    { orderId, reservationId: orderId + 1, amount: 4200, currency: 'EUR', customerEmail: 'buyer@example.test' },
    `test-order-${orderId}-${crypto.randomUUID()}`,
  );

/** A payment whose events go to this file's relay, confirmed with `card`, its deliveries answered. */
async function paid(card: string, switches: Record<string, unknown> = {}) {
  const intent = await payment(randomInt(1, 1e9));
  await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url, ...switches });
  await confirmAsBrowser(keys, intent, card);
  await standInControl(keys, 'POST', 'settle');
  return intent;
}
const answersFor = (intentId: string) =>
  relay.answers.filter(({ event }) => {
    const object = event.data.object as { id?: string; payment_intent?: string };
    return object.id === intentId || object.payment_intent === intentId;
  });

const post = (body: string, signature?: string) =>
  call('POST', WEBHOOK_PATH, {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
  });
const eventBody = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: `evt_test_${crypto.randomUUID().slice(0, 8)}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: 'pi_unknown', object: 'payment_intent' } },
    ...fields,
  });
const signed = (payload: string, secret = keys.webhookSecret, timestamp?: number) =>
  signer.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

describe('POST /payments/stripe/webhook', () => {
  it("acknowledges the stand-in's signed events with 200 {received: true}: a success, a decline, a refund", async () => {
    // A payment naming no order is refunded by the service itself (succeeded-payments.ts): the refund's event follows.
    const succeeded = await paid('pm_card_visa');
    const declined = await paid('pm_card_chargeDeclined');
    await standInControl(keys, 'POST', 'settle');
    const seen = [...answersFor(succeeded.id), ...answersFor(declined.id)];
    expect(seen.map(({ event }) => event.type).sort()).toEqual([
      'charge.refunded',
      'payment_intent.payment_failed',
      'payment_intent.succeeded',
      'refund.created',
    ]);
    for (const { answer } of seen) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ received: true });
    }
    const { data } = await standInControl(keys, 'GET', `deliveries?payment_intent=${succeeded.id}`);
    expect(data.map((d: { status: number }) => d.status)).toEqual([200, 200, 200]);
    expect(await refundsAtStripe(keys, succeeded.id)).toEqual([
      { id: expect.stringMatching(/^re_/), amount: 4200, status: 'succeeded' },
    ]);
  });

  it('acknowledges a repeat delivery of the same event as well, refunding its payment once', async () => {
    const intent = await paid('pm_card_visa', { twice: true });
    const answers = answersFor(intent.id).filter(({ event }) => event.type === 'payment_intent.succeeded');
    expect(answers).toHaveLength(2);
    expect(answers[0]!.event.id).toBe(answers[1]!.event.id);
    expect(answers.map(({ answer }) => answer.status)).toEqual([200, 200]);
    expect(await refundsAtStripe(keys, intent.id)).toHaveLength(1);
  });

  it('refuses a delivery the stand-in signed with a stale timestamp (over 5 minutes) with 400', async () => {
    const intent = await paid('pm_card_visa', { staleBySeconds: 301 });
    const [only] = answersFor(intent.id);
    expect(only!.answer.status).toBe(400);
    expect(only!.answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('refuses an unsigned, a forged and another-mode event with 400 problem+json, sending nothing to the table', async () => {
    const body = eventBody();
    const refusals = [
      () => post(body),
      () => post(body, signed(body, 'whsec_not_this_stages')),
      () => post(body, 't=1700000000,v1=deadbeef'),
      () => post(body.replace('pi_unknown', 'pi_tampered'), signed(body)),
      () => post(body, signed(body, keys.webhookSecret, Math.floor(Date.now() / 1000) - 600)),
      () => post(eventBody({ livemode: true }), signed(eventBody({ livemode: true }))),
    ];
    for (const refused of refusals) {
      let answer: Awaited<ReturnType<typeof post>> | undefined;
      const sent = await commandsSent(async () => {
        answer = await refused();
      });
      expect(answer!.status).toBe(400);
      expect(answer!.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(sent).toEqual([]);
    }
  });

  it("refuses a connected account's event (this service is no Connect platform)", async () => {
    const body = eventBody({ account: 'acct_someone_else' });
    const answer = await post(body, signed(body));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'body.livemode' })]);
  });

  it('acknowledges a verified event of a type it does not act on', async () => {
    const body = eventBody({ type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
    const answer = await post(body, signed(body));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const answer = await call('POST', WEBHOOK_PATH, {
      body: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(415);
  });
});
