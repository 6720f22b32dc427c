import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { getOrder } from '#shared/selling/data/orders';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { call } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { clearFaults, expectUnavailable, failures } from '../support/faults.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { mailTo } from '../support/mail.ts';
import { paidCheckout, refundsAtStripe, type PaidCheckout } from '../support/paid-checkout.ts';
import { standInControl, stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { soldOf, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `POST /orders/{id}/cancel` refunds what the order was paid: a checkout paid through the
 * Stripe stand-in is refunded there once however the cancel is retried (another key, Stripe failing, a crash
 * after Stripe refunded), the refund on the order as a negative transaction; Stripe's `charge.refunded`
 * (ours, or one made in Stripe's dashboard) is recorded once and cancels nothing; a box-office payment is
 * recorded as due at the desk; a ticket transferred to another type is cancelled as its replacement. A checkout
 * awaiting payment or still issuing, and part of an order: orders-cancel-states.test.ts.
 */
const ORDERS = '/api/v2/orders';
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:read', 'orders:refund', 'tickets:read', 'tickets:write'], 999_580);
});
afterEach(async () => {
  await clearFaults();
  await standInControl(keys, 'POST', 'faults', { route: 'POST /v1/refunds', times: 0 });
});

const cancel = (id: string | number, key: string = crypto.randomUUID(), body: unknown = {}) =>
  call('POST', `${ORDERS}/${id}/cancel`, { token: staff, body, headers: { 'idempotency-key': key } });

/** The stand-in's `charge.refunded` deliveries for a payment, as the webhook route answered them. */
const refundDeliveries = (intentId: string) =>
  relay.answers.filter(
    ({ event }) =>
      event.type === 'charge.refunded' &&
      (event.data.object as { payment_intent?: string }).payment_intent === intentId,
  );

async function refundEvents(intentId: string): Promise<{ id: string }[]> {
  const { data } = await standInControl(keys, 'GET', `events?payment_intent=${intentId}`);
  return data.filter((event: { type: string }) => event.type === 'charge.refunded');
}

describe('POST /orders/{id}/cancel of a Stripe payment', () => {
  let bought: PaidCheckout;
  beforeAll(async () => {
    bought = await paidCheckout(keys, relay, { quantity: 2, price: 12.5 });
  });

  it('refunds it in full through Stripe once, records the refund, and a retry with another key refunds nothing more', async () => {
    const soldBefore = (await soldOf(bought.eventId)).get(bought.typeId)!;
    const done = await cancel(bought.orderId, 'refund-1');
    expect(done.status, done.raw).toBe(200);
    await standInControl(keys, 'POST', 'settle');

    const refunds = await refundsAtStripe(keys, bought.intentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 2500, status: 'succeeded' });
    expect(done.body.data).toMatchObject({
      status: 'refunded',
      payment: {
        paid: 0,
        transactions: [
          { amount: 25, processor: 'stripe', reference: bought.intentId },
          { amount: -25, processor: 'stripe', reference: refunds[0]!.id },
        ],
      },
      tickets: [{ status: 'cancelled' }, { status: 'cancelled' }],
    });
    expect((await soldOf(bought.eventId)).get(bought.typeId)).toBe(soldBefore - 2);

    // Stripe's charge.refunded of our own refund came, and changed nothing: the refund is there once.
    expect(refundDeliveries(bought.intentId).map(({ answer }) => answer.status)).toEqual([200]);
    expect((await getOrder(Number(bought.orderId)))!.transactions).toHaveLength(2);
    const mail = (await mailTo(bought.email)).at(-1)!;
    expect(mail.subject).toBe(`Your order ${bought.orderId} was cancelled`);
    expect(mail.body.text).toContain('The payment of EUR 25.00 is refunded');

    const replay = await cancel(bought.orderId, 'refund-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(done.body);
    const again = await cancel(bought.orderId, 'refund-2');
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('already_cancelled');
    // A late second delivery of the event changes nothing either.
    const [event] = await refundEvents(bought.intentId);
    await standInControl(keys, 'POST', `events/${event!.id}/resend`, { url: relay.url });
    await standInControl(keys, 'POST', 'settle');
    expect(refundDeliveries(bought.intentId).map(({ answer }) => answer.status)).toEqual([200, 200]);
    expect((await getOrder(Number(bought.orderId)))!.transactions).toHaveLength(2);
    expect(await refundsAtStripe(keys, bought.intentId)).toHaveLength(1);
  });
});

describe('POST /orders/{id}/cancel when Stripe fails', () => {
  it('answers 503 with Retry-After while Stripe fails, moves no status, and a retry refunds once', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 1, price: 30 });
    // Only this payment's refunds fail: another file's, running beside this one, go through.
    const fault = { route: 'POST /v1/refunds', paymentIntent: bought.intentId };
    await standInControl(keys, 'POST', 'faults', { ...fault, status: 500, times: 10 });
    const failed = await cancel(bought.orderId, 'stripe-down');
    expectUnavailable(failed, 'payment processor');
    const between = (await getOrder(Number(bought.orderId)))!;
    expect(between.status).toBe('active');
    expect(between.cancellation).toMatchObject({ outcome: 'refunded' });
    expect(between.transactions).toHaveLength(1);
    expect(await refundsAtStripe(keys, bought.intentId)).toEqual([]);

    await standInControl(keys, 'POST', 'faults', { ...fault, times: 0 });
    const retried = await cancel(bought.orderId, 'stripe-down');
    expect(retried.status, retried.raw).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'refunded', payment: { paid: 0 } });
    expect(await refundsAtStripe(keys, bought.intentId)).toHaveLength(1);
  });

  it('after a crash between Stripe refunding and the record, the retry gets the one refund back and records it once', async () => {
    // No webhook for this payment's refund: only the cancel's retry can record it.
    const bought = await paidCheckout(keys, relay, { quantity: 1, price: 30 });
    await standInControl(keys, 'POST', `payment_intents/${bought.intentId}/webhooks`, { url: null });
    // The record of the refund (the order's UpdateItem after Stripe answered) fails, as a crash would leave it.
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { ExpressionAttributeNames?: Record<string, string> };
        if (context.commandName === 'UpdateItemCommand' && input.ExpressionAttributeNames?.['#list'] === 'transactions')
          throw failures.dynamoInternal();
        return next(args);
      },
      { step: 'finalizeRequest', name: 'refundRecordFails' },
    );
    const failed = await cancel(bought.orderId, crypto.randomUUID());
    db.middlewareStack.remove('refundRecordFails');
    expect(failed.status).toBe(503);
    const [refund] = await refundsAtStripe(keys, bought.intentId);
    expect(refund).toBeDefined();
    expect((await getOrder(Number(bought.orderId)))!).toMatchObject({
      status: 'active',
      transactions: [{ amount: 30 }],
    });

    const retried = await cancel(bought.orderId, crypto.randomUUID());
    expect(retried.status, retried.raw).toBe(200);
    expect(await refundsAtStripe(keys, bought.intentId)).toEqual([refund]);
    expect(retried.body.data.payment.transactions).toEqual([
      expect.objectContaining({ amount: 30 }),
      expect.objectContaining({ amount: -30, reference: refund!.id }),
    ]);
    // Stripe's event, sent late, finds it recorded.
    const [event] = await refundEvents(bought.intentId);
    await standInControl(keys, 'POST', `events/${event!.id}/resend`, { url: relay.url });
    await standInControl(keys, 'POST', 'settle');
    expect((await getOrder(Number(bought.orderId)))!.transactions).toHaveLength(2);
  });
});

describe("charge.refunded from Stripe's dashboard", () => {
  it('records the refund once and cancels nothing; a later cancel refunds nothing more', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 1, price: 20 });
    const refund = await stripeSdk(keys.secretKey).refunds.create({ payment_intent: bought.intentId });
    await standInControl(keys, 'POST', 'settle');
    const [event] = await refundEvents(bought.intentId);
    await standInControl(keys, 'POST', `events/${event!.id}/resend`, { url: relay.url });
    await standInControl(keys, 'POST', 'settle');
    expect(refundDeliveries(bought.intentId).map(({ answer }) => answer.status)).toEqual([200, 200]);

    const order = await call('GET', `${ORDERS}/${bought.orderId}`, { token: staff });
    expect(order.body.data).toMatchObject({
      status: 'active',
      payment: {
        paid: 0,
        transactions: [{ amount: 20 }, { amount: -20, processor: 'stripe', reference: refund.id }],
      },
      tickets: [{ status: 'active' }],
    });

    const cancelled = await cancel(bought.orderId);
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'refunded', tickets: [{ status: 'cancelled' }] });
    expect(cancelled.body.data.payment.transactions).toHaveLength(2);
    expect(await refundsAtStripe(keys, bought.intentId)).toHaveLength(1);
  });
});

describe('POST /orders/{id}/cancel of a box-office order', () => {
  it('records a cash or card-present payment as refunded at the desk, with no Stripe call; a comp order refunds nothing', async () => {
    const event = await seedEvent();
    const { id: typeId, price } = event.ticketTypes[0]!;
    const cash = await placeOrder(event, unusedCustomerId(), [typeId], { method: 'cash' });
    // Stripe would fail a refund of this order (sent with its key, shared/selling/use-cases/refunds.ts): the desk's
    // needs none. Scoped by the key, so a refund of another file's order beside this one goes through.
    await standInControl(keys, 'POST', 'faults', {
      route: 'POST /v1/refunds',
      idempotencyKey: `order-${cash.id}-refund`,
      status: 500,
      times: 10,
    });
    const done = await cancel(cash.id);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'refunded',
      payment: {
        paid: 0,
        transactions: [
          { amount: price, processor: 'cash' },
          { amount: -price, processor: 'cash', reference: `order-${cash.id}-refund-cash` },
        ],
      },
    });

    const comp = await placeOrder(event, unusedCustomerId(), [typeId], { method: 'comp' });
    const free = await cancel(comp.id);
    expect(free.status, free.raw).toBe(200);
    expect(free.body.data).toMatchObject({ status: 'cancelled', payment: { transactions: [{ processor: 'comp' }] } });
    expect(free.body.data.payment.transactions).toHaveLength(1);
  });
});

describe('POST /orders/{id}/cancel of an order with a transferred ticket', () => {
  const transfer = (id: number, typeId: number) =>
    call('POST', `${TICKETS}/${id}/transfer`, { token: staff, body: { typeId } });

  it('cancels the replacement a transfer made, returning its type its place', async () => {
    const event = await seedEvent();
    const [ga, vip] = event.ticketTypes.map((type) => type.id) as [number, number];
    const order = await placeOrder(event, unusedCustomerId(), [ga, ga]);
    const [moved, kept] = order.ticketIds as [number, number];
    const first = await transfer(moved, vip);
    expect(first.status, first.raw).toBe(200);
    const again = await transfer(Number(first.body.data.id), ga);
    expect(again.status, again.raw).toBe(200);
    const replacement = Number(again.body.data.id);
    const soldBefore = await soldOf(event.id);

    const done = await cancel(order.id);
    expect(done.status, done.raw).toBe(200);
    expect((await readTicketRecord(replacement))!.processState).toBe(PROCESS_STATE.cancelled);
    expect((await readTicketRecord(kept))!.processState).toBe(PROCESS_STATE.cancelled);
    expect((await soldOf(event.id)).get(ga)).toBe(soldBefore.get(ga)! - 2);
    expect((await soldOf(event.id)).get(vip)).toBe(soldBefore.get(vip));
    const mail = (await mailTo(order.emailAddress)).at(-1)!;
    expect(mail.body.text).toContain(`Ticket ${replacement},`);
  });

  it('refuses, changing nothing, when a replacement is in an event outside the caller’s scope', async () => {
    const [home, away] = await Promise.all([seedEvent(), seedEvent()]);
    const order = await placeOrder(home, unusedCustomerId(), [home.ticketTypes[0]!.id]);
    const moved = await transfer(order.ticketIds[0]!, away.ticketTypes[0]!.id);
    expect(moved.status, moved.raw).toBe(200);
    const scoped = await adminToken(['orders:read', 'orders:refund'], 999_581, { eventScope: [home.id] });
    const refused = await call('POST', `${ORDERS}/${order.id}/cancel`, { token: scoped, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'transferred_out_of_scope', ticketIds: [String(moved.body.data.id)] });
    const untouched = (await getOrder(order.id))!;
    expect(untouched.status).toBe('active');
    expect(untouched.cancellation).toBeUndefined();
    expect((await readTicketRecord(Number(moved.body.data.id)))!.processState).toBe(PROCESS_STATE.active);
  });
});
