import { beforeAll, describe, expect, it } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import { call, getPage, idsOf } from '../support/api.ts';
import { mailTo } from '../support/mail.ts';
import { checkedOut, paidCheckout, refundsAtStripe } from '../support/paid-checkout.ts';
import { confirmAsBrowser, standInControl, stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { adminToken } from '../support/tokens.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';

/**
 * Disputes and refunds that fail later, followed from Stripe's events through the stand-in (shared/README.md
 * "Refunds"): `pm_card_createDispute` puts the dispute on the order, where staff see it and the `dispute` list
 * filter finds it; a cancel of a charged-back order cancels its tickets and refunds nothing; `pm_card_refundFail`'s
 * refund fails after it was recorded and the order says so. Repeats and events out of order change nothing twice.
 */
const ORDERS = '/api/v2/orders';
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:read', 'orders:refund'], 999_560);
});

const readOrder = async (id: string) => {
  const answer = await call('GET', `${ORDERS}/${id}`, { token: staff });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data;
};
const cancel = (id: string) =>
  call('POST', `${ORDERS}/${id}/cancel`, {
    token: staff,
    body: {},
    headers: { 'idempotency-key': crypto.randomUUID() },
  });

/** The stand-in's events of one payment, of one type, oldest first. */
async function eventsOf(intentId: string, type: string): Promise<{ id: string; type: string }[]> {
  const { data } = await standInControl(keys, 'GET', `events?payment_intent=${intentId}`);
  return data.filter((event: { type: string }) => event.type === type);
}

async function resend(eventId: string): Promise<void> {
  await standInControl(keys, 'POST', `events/${eventId}/resend`, { url: relay.url });
  await standInControl(keys, 'POST', 'settle');
}

const disputeOf = async (intentId: string): Promise<{ id: string }> =>
  (await standInControl(keys, 'GET', `disputes?payment_intent=${intentId}`)).data[0];

async function moveDispute(intentId: string, status: string): Promise<void> {
  await standInControl(keys, 'POST', `disputes/${(await disputeOf(intentId)).id}`, { status });
  await standInControl(keys, 'POST', 'settle');
}

describe('a payment disputed by the cardholder (pm_card_createDispute)', () => {
  const disputedCheckout = () =>
    paidCheckout(keys, relay, { quantity: 2, price: 12.5, paymentMethod: 'pm_card_createDispute' });

  it('puts the dispute on the order, which the open disputes filter finds per event and across events', async () => {
    const bought = await disputedCheckout();
    const dispute = await disputeOf(bought.intentId);
    const currency = (await getOrder(Number(bought.orderId)))!.checkout!.currency.toUpperCase();
    const order = await readOrder(bought.orderId);
    expect(order.status).toBe('active');
    expect(order.dispute).toEqual({
      id: dispute.id,
      status: 'needs_response',
      reason: 'fraudulent',
      amount: 25,
      currency,
      updatedAt: expect.any(String),
    });

    const open = await getPage(`${ORDERS}?dispute=open&eventId=${bought.eventId}`, staff);
    expect(idsOf(open)).toEqual([Number(bought.orderId)]);
    expect(open.data[0]!.dispute).toMatchObject({ status: 'needs_response' });
    expect(idsOf(await getPage(`${ORDERS}?dispute=open&_limit=100`, staff))).toContain(Number(bought.orderId));
    expect((await getPage(`${ORDERS}?dispute=closed&eventId=${bought.eventId}`, staff)).data).toEqual([]);
    const otherScope = await adminToken(['orders:read'], 999_561, { eventScope: [bought.eventId + 100_000] });
    expect((await getPage(`${ORDERS}?dispute=open`, otherScope)).data).toEqual([]);
  });

  it('takes each dispute event once and never steps back; a decided dispute moves to the closed list', async () => {
    const bought = await disputedCheckout();
    await moveDispute(bought.intentId, 'under_review');
    const reviewed = await readOrder(bought.orderId);
    expect(reviewed.dispute.status).toBe('under_review');
    const [created] = await eventsOf(bought.intentId, 'charge.dispute.created');
    await resend(created!.id);
    expect((await readOrder(bought.orderId)).dispute).toEqual(reviewed.dispute);
    const answers = relay.answers.filter(({ event }) => event.id === created!.id).map(({ answer }) => answer.status);
    expect(answers).toEqual([200, 200]);

    await moveDispute(bought.intentId, 'lost');
    expect((await readOrder(bought.orderId)).dispute.status).toBe('lost');
    expect(idsOf(await getPage(`${ORDERS}?dispute=closed&eventId=${bought.eventId}`, staff))).toEqual([
      Number(bought.orderId),
    ]);
    expect((await getPage(`${ORDERS}?dispute=open&eventId=${bought.eventId}`, staff)).data).toEqual([]);
    // The closing event again, and the older update after it: the dispute stays lost.
    const [closed] = await eventsOf(bought.intentId, 'charge.dispute.closed');
    await resend(closed!.id);
    const [updated] = await eventsOf(bought.intentId, 'charge.dispute.updated');
    await resend(updated!.id);
    expect((await readOrder(bought.orderId)).dispute.status).toBe('lost');
    expect((await getPage(`${ORDERS}?dispute=open&eventId=${bought.eventId}`, staff)).data).toEqual([]);
  });

  it('cancels its tickets without a refund: Stripe refuses to refund a charged-back payment', async () => {
    const bought = await disputedCheckout();
    const done = await cancel(bought.orderId);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'cancelled',
      cancellation: { outcome: 'cancelled' },
      payment: { paid: 25, transactions: [{ amount: 25, reference: bought.intentId }] },
      dispute: { status: 'needs_response' },
      tickets: [{ status: 'cancelled' }, { status: 'cancelled' }],
    });
    expect(done.body.data.payment.transactions).toHaveLength(1);
    expect(await refundsAtStripe(keys, bought.intentId)).toEqual([]);
    expect((await mailTo(bought.email)).at(-1)!.body.text).toContain('disputed with your card issuer');
    const again = await cancel(bought.orderId);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('already_cancelled');
  });
});

describe('a cancel before the dispute reached the order', () => {
  it('cancels without a refund when Stripe refuses it as charged back, and the dispute is recorded when it comes', async () => {
    const { intent, ...bought } = await checkedOut(keys, relay, { quantity: 1, price: 30 });
    // Nothing is sent on its own: the payment's event is handed over, the dispute's held back.
    await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: null });
    expect((await confirmAsBrowser(keys, intent, 'pm_card_createDispute')).body.status).toBe('succeeded');
    const [paid] = await eventsOf(intent.id, 'payment_intent.succeeded');
    await resend(paid!.id);
    await claimedThenIssued(bought.orderId);
    expect((await readOrder(bought.orderId)).dispute).toBeUndefined();

    const done = await cancel(bought.orderId);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'cancelled',
      cancellation: { outcome: 'cancelled' },
      payment: { paid: 30 },
      tickets: [{ status: 'cancelled' }],
    });
    expect(await refundsAtStripe(keys, intent.id)).toEqual([]);

    const [disputed] = await eventsOf(intent.id, 'charge.dispute.created');
    await resend(disputed!.id);
    expect((await readOrder(bought.orderId)).dispute).toMatchObject({ status: 'needs_response', amount: 30 });
  });
});

describe('a refund that fails later (pm_card_refundFail)', () => {
  it('is corrected on the order by one appended transaction, and shown to staff, however often Stripe reports it', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 1, price: 20, paymentMethod: 'pm_card_refundFail' });
    const done = await cancel(bought.orderId);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'refunded', payment: { paid: 0 } });
    await standInControl(keys, 'POST', 'settle');

    const [refund] = await refundsAtStripe(keys, bought.intentId);
    expect(refund).toMatchObject({ status: 'failed' });
    const order = await readOrder(bought.orderId);
    expect(order.payment).toEqual({
      paid: 20,
      transactions: [
        expect.objectContaining({ amount: 20, reference: bought.intentId }),
        expect.objectContaining({ amount: -20, reference: refund!.id }),
        expect.objectContaining({ amount: 20, reference: `${refund!.id}-failed` }),
      ],
    });
    expect(order.refundFailures).toEqual([{ refundId: refund!.id, amount: 20, at: expect.any(String) }]);
    // Stripe sent refund.updated, refund.failed and charge.refund.updated; each answered 2xx, one correction.
    for (const type of ['refund.updated', 'refund.failed', 'charge.refund.updated'])
      expect(await eventsOf(bought.intentId, type)).toHaveLength(1);
    const [failed] = await eventsOf(bought.intentId, 'refund.failed');
    await resend(failed!.id);
    expect((await readOrder(bought.orderId)).payment.transactions).toHaveLength(3);
  });

  it('nets to nothing when the failure comes before the refund is recorded', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 1, price: 15, paymentMethod: 'pm_card_refundFail' });
    await standInControl(keys, 'POST', `payment_intents/${bought.intentId}/webhooks`, { url: null });
    // A refund made in Stripe's dashboard: the service learns of it only from the events.
    await stripeSdk(keys.secretKey).refunds.create({ payment_intent: bought.intentId });
    await standInControl(keys, 'POST', 'settle');
    const [failed] = await eventsOf(bought.intentId, 'refund.failed');
    await resend(failed!.id);
    const [refunded] = await eventsOf(bought.intentId, 'charge.refunded');
    await resend(refunded!.id);
    const [updated] = await eventsOf(bought.intentId, 'refund.updated');
    await resend(updated!.id);

    const order = await readOrder(bought.orderId);
    expect(order.status).toBe('active');
    expect(order.payment.paid).toBe(15);
    expect(order.payment.transactions.map((t: { amount: number }) => t.amount)).toEqual([15, -15, 15]);
    expect(order.refundFailures).toHaveLength(1);
  });
});

describe('GET /orders?dispute=', () => {
  it('refuses a value it does not know, and a filter it is not kept with, with a 400', async () => {
    for (const query of ['dispute=yes', 'dispute=open&status=active', 'dispute=open&customerId=3']) {
      const answer = await call('GET', `${ORDERS}?${query}`, { token: staff });
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body.errors), query).toContain('dispute');
    }
  });
});
