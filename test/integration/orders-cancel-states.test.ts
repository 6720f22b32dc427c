import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { findTicketType } from '#shared/events/data/events';
import { startCancellation } from '#shared/selling/data/order-staff';
import { getOrder } from '#shared/selling/data/orders';
import { getReservation } from '#shared/selling/data/reservations';
import { readStock } from '#shared/selling/data/stock';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { issuedTicketIds } from '#shared/selling/domain/order-cancel';
import { orderTicketStatus } from '#shared/selling/domain/order';
import { STUCK_ORDER_GRACE_MS, sweepStuckOrders } from '#shared/selling/use-cases/sweep-stuck-orders';
import { runAs } from '../../bin/local/invoke.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearInterleavings, names, runBefore } from '../support/interleave.ts';
import { mailTo } from '../support/mail.ts';
import { checkedOut, paidCheckout, refundsAtStripe } from '../support/paid-checkout.ts';
import { payOrder } from '../support/paid-order-issuing.ts';
import { confirmAsBrowser, standInControl, stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Cancelling is safe in every state, over HTTP against the table and the Stripe stand-in: a checkout
 * awaiting payment has its PaymentIntent cancelled and its stock back at once; a paid one still issuing its tickets
 * stops issuing, whichever of the cancel and the issue comes first (test/support/interleave.ts), with no ticket of
 * the refunded order valid and the stock back; part of an active order is cancelled and its share refunded once.
 */
const ORDERS = '/api/v2/orders';
/** The stand-in's checkouts (test/support/paid-checkout.ts) sell a type of 50. */
const TOTAL = 50;
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:read', 'orders:refund', 'tickets:read'], 999_590);
});
afterEach(async () => {
  clearInterleavings();
  await clearFaults();
});

const cancel = (id: string | number, body: unknown = {}, key: string = crypto.randomUUID()) =>
  call('POST', `${ORDERS}/${id}/cancel`, { token: staff, body, headers: { 'idempotency-key': key } });

/** A type's stock: its shards' `left` and `held`, and its `sold`. */
async function stockOf(typeId: number) {
  const type = (await findTicketType(typeId))!;
  const shards = await readStock(type);
  return {
    left: shards.reduce((sum, shard) => sum + shard.left, 0),
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
  };
}

/** A checkout awaiting payment whose Stripe events go nowhere (the test plays the webhook with payOrder). */
async function undelivered(quantity: number, price = 12.5) {
  const waiting = await checkedOut(keys, relay, { quantity, price });
  await standInControl(keys, 'POST', `payment_intents/${waiting.intentId}/webhooks`, { url: null });
  return waiting;
}

/** The buyer pays at Stripe (as Stripe.js confirms); the payment as the webhook hands it to payOrder. */
async function paidAtStripe(intent: { id: string; clientSecret: string }, amount: number) {
  expect((await confirmAsBrowser(keys, intent, 'pm_card_visa')).body.status).toBe('succeeded');
  return { intentId: intent.id, amount };
}

/** The order ended refunded: every ticket it ever issued cancelled, the payment refunded once in full, the stock back. */
async function expectRefundedWhole(orderId: number, intentId: string, typeId: number, amount: number) {
  const order = (await getOrder(orderId))!;
  expect(order.status).toBe('refunded');
  const issued = issuedTicketIds(order);
  const tickets = await readTicketRecords(issued);
  expect([...tickets.values()].map(orderTicketStatus)).toEqual(issued.map(() => 'cancelled'));
  const staffView = await call('GET', `${ORDERS}/${orderId}`, { token: staff });
  expect(staffView.body.data.tickets.map((ticket: { status: string }) => ticket.status)).toEqual(
    issued.map(() => 'cancelled'),
  );
  const refunds = await refundsAtStripe(keys, intentId);
  expect(refunds.map((refund) => refund.amount)).toEqual([amount]);
  expect(await stockOf(typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });
  return order;
}

describe('POST /orders/{id}/cancel of a checkout awaiting payment', () => {
  it('cancels its PaymentIntent at Stripe and puts its stock back on sale at once, the reservation released', async () => {
    const waiting = await checkedOut(keys, relay, { quantity: 2, price: 10 });
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL - 2, held: 2, sold: 0 });
    const done = await cancel(waiting.orderId);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'cancelled', payment: { transactions: [] }, ticketIds: [] });
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });
    const order = (await getOrder(Number(waiting.orderId)))!;
    expect((await getReservation(order.checkout!.reservationId))!.status).toBe('released');

    const intent = await stripeSdk(keys.secretKey).paymentIntents.retrieve(waiting.intentId);
    expect(intent.status).toBe('canceled');
    const payment = await confirmAsBrowser(keys, waiting.intent, 'pm_card_visa');
    expect(payment.body.status).not.toBe('succeeded');
    expect(await refundsAtStripe(keys, waiting.intentId)).toEqual([]);
  });

  it('refunds a payment Stripe took before the cancel and delivered after it, issuing nothing', async () => {
    const waiting = await undelivered(1, 15);
    await paidAtStripe(waiting.intent, 1500);
    const done = await cancel(waiting.orderId);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data.status).toBe('cancelled');
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });

    const { data } = await standInControl(keys, 'GET', `events?payment_intent=${waiting.intentId}`);
    for (const event of data) await standInControl(keys, 'POST', `events/${event.id}/resend`, { url: relay.url });
    await standInControl(keys, 'POST', 'settle');
    const order = (await getOrder(Number(waiting.orderId)))!;
    expect(order).toMatchObject({ status: 'cancelled', ticketIds: [] });
    expect(order.transactions.map((transaction) => transaction.amount).sort()).toEqual([-15, 15]);
    expect((await refundsAtStripe(keys, waiting.intentId)).map((refund) => refund.amount)).toEqual([1500]);
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });
    // Stripe's events again (a second delivery of each) change nothing.
    for (const event of data) await standInControl(keys, 'POST', `events/${event.id}/resend`, { url: relay.url });
    await standInControl(keys, 'POST', 'settle');
    expect((await getOrder(Number(waiting.orderId)))!.transactions).toHaveLength(2);
    expect(await refundsAtStripe(keys, waiting.intentId)).toHaveLength(1);
  });

  it('goes on as for a paid order when the payment claims the order between the cancel’s start and its close', async () => {
    const waiting = await undelivered(2);
    const orderId = Number(waiting.orderId);
    const payment = await paidAtStripe(waiting.intent, 2500);
    let claimed: string | undefined;
    const between = runBefore(
      db,
      {
        command: 'TransactWriteItemsCommand',
        when: (input) => names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('"cancelled"'),
      },
      async () => {
        claimed = await payOrder(orderId, payment);
      },
    );
    const done = await cancel(orderId);
    expect(between.ran).toBe(true);
    // The payment claimed the order, and issued nothing under the cancellation.
    expect(claimed).toBe('pending');
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'refunded', ticketIds: [] });
    await expectRefundedWhole(orderId, waiting.intentId, waiting.typeId, 2500);
  });
});

describe('POST /orders/{id}/cancel of a paid checkout still issuing its tickets', () => {
  it("the cancel lands before the issue's transaction: the issue stops, nothing issued, the hold back", async () => {
    const waiting = await undelivered(3);
    const orderId = Number(waiting.orderId);
    const payment = await paidAtStripe(waiting.intent, 3750);
    let answer: Awaited<ReturnType<typeof cancel>> | undefined;
    const between = runBefore(
      db,
      {
        command: 'TransactWriteItemsCommand',
        when: (input) =>
          names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('"#issued":"issuedTickets"'),
      },
      async () => {
        answer = await cancel(orderId);
      },
    );
    const status = await payOrder(orderId, payment);
    expect(between.ran).toBe(true);
    expect(status).toBe('refunded');
    expect(answer!.status, answer!.raw).toBe(200);
    expect(answer!.body.data).toMatchObject({ status: 'refunded', tickets: [] });
    const order = await expectRefundedWhole(orderId, waiting.intentId, waiting.typeId, 3750);
    expect(Object.keys(order.issuedTickets!)).toEqual([]);
    expect(order.cancellation).toMatchObject({ outcome: 'refunded' });
  });

  it('the issue runs whole before the cancel starts: the cancel finds it active and cancels every ticket', async () => {
    const waiting = await undelivered(2);
    const orderId = Number(waiting.orderId);
    const payment = await paidAtStripe(waiting.intent, 2500);
    const between = runBefore(
      db,
      {
        command: 'UpdateItemCommand',
        when: (input) =>
          names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('cancellation = :cancellation'),
      },
      () => payOrder(orderId, payment),
    );
    const done = await cancel(orderId);
    expect(between.ran).toBe(true);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'refunded',
      tickets: [{ status: 'cancelled' }, { status: 'cancelled' }],
    });
    const order = await expectRefundedWhole(orderId, waiting.intentId, waiting.typeId, 2500);
    expect(order.ticketIds).toHaveLength(2);
  });

  it('a stuck issue is cancelled, and a delivery of the payment during the cancel issues nothing more', async () => {
    const waiting = await undelivered(3);
    const orderId = Number(waiting.orderId);
    const payment = await paidAtStripe(waiting.intent, 3750);
    // The transaction (the order's three tickets together) fails on every attempt: the order stays pending with none.
    const fault = failCalls(db, {
      commands: ['TransactWriteItemsCommand'],
      when: (input) => names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('"#issued":"issuedTickets"'),
      error: failures.dynamoInternal,
    });
    await expect(payOrder(orderId, payment)).rejects.toThrow();
    fault.remove();
    expect(Object.keys((await getOrder(orderId))!.issuedTickets!)).toEqual([]);
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL - 3, held: 3, sold: 0 });

    let redelivered: string | undefined;
    const between = runBefore(
      db,
      {
        command: 'TransactWriteItemsCommand',
        when: (input) => names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('"refunded"'),
      },
      async () => {
        redelivered = await payOrder(orderId, payment);
      },
    );
    const done = await cancel(orderId);
    expect(between.ran).toBe(true);
    expect(redelivered).toBe('pending');
    expect(done.status, done.raw).toBe(200);
    await expectRefundedWhole(orderId, waiting.intentId, waiting.typeId, 3750);
    expect(await payOrder(orderId, payment)).toBe('refunded');
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });
    const mail = (await mailTo(waiting.email)).at(-1)!;
    expect(mail.subject).toBe(`Your order ${orderId} was cancelled`);
  });
});

describe('a staff cancel of a pending checkout whose request died after its start', () => {
  it('is finished by the sweep of stuck orders, by system: tickets cancelled, payment refunded, stock back', async () => {
    // A day back, and swept just past the grace period from then: no other file's pending order is that old.
    const made = Date.now() - 24 * 3_600_000;
    const { waiting, orderId } = await atTime(made, async () => {
      const waiting = await undelivered(2);
      const orderId = Number(waiting.orderId);
      const payment = await paidAtStripe(waiting.intent, 2500);
      const fault = failCalls(db, {
        commands: ['TransactWriteItemsCommand'],
        when: (input) =>
          names(input, `ORDER#${orderId}`) && JSON.stringify(input).includes('"#issued":"issuedTickets"'),
        error: failures.dynamoInternal,
      });
      await expect(payOrder(orderId, payment)).rejects.toThrow();
      fault.remove();
      const at = new Date(made).toISOString();
      const started = await startCancellation(
        (await getOrder(orderId))!,
        { at, by: 'admin 999590', force: false, outcome: 'refunded' },
        { at, by: 'admin 999590', action: 'cancel_started', force: false },
      );
      expect(started).toBe(true);
      return { waiting, orderId };
    });
    expect(await stockOf(waiting.typeId)).toEqual({ left: TOTAL - 2, held: 2, sold: 0 });

    await atTime(made + STUCK_ORDER_GRACE_MS + 60_000, () =>
      runAs('release-reservations', () => sweepStuckOrders(50_000)),
    );
    const order = await expectRefundedWhole(orderId, waiting.intentId, waiting.typeId, 2500);
    expect(order.history?.at(-1)).toMatchObject({ by: 'system', action: 'refunded' });
  });
});

describe('POST /orders/{id}/cancel with ticketIds', () => {
  it('cancels those tickets, returns their stock and refunds their share once; the last ones end the order', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 3, price: 12.5 });
    const order = (await getOrder(Number(bought.orderId)))!;
    const [first, second, third] = order.ticketIds.map(String) as [string, string, string];

    const part = await cancel(bought.orderId, { ticketIds: [second] });
    expect(part.status, part.raw).toBe(200);
    expect(part.body.data).toMatchObject({
      status: 'active',
      tickets: [
        { id: first, status: 'active' },
        { id: second, status: 'cancelled' },
        { id: third, status: 'active' },
      ],
      payment: { paid: 25 },
    });
    expect(part.body.data.history.at(-1)).toMatchObject({ action: 'tickets_cancelled', ticketIds: [second] });
    expect(await stockOf(bought.typeId)).toEqual({ left: TOTAL - 2, held: 0, sold: 2 });
    expect((await refundsAtStripe(keys, bought.intentId)).map((refund) => refund.amount)).toEqual([1250]);
    const mail = (await mailTo(bought.email)).at(-1)!;
    expect(mail.subject).toBe(`Tickets of your order ${bought.orderId} were cancelled`);
    expect(mail.body.text).toContain(`- Ticket ${second},`);
    expect(mail.body.text).toContain('12.50 is refunded');

    // The same part again, with another key (a retry after a lost answer): nothing more refunded.
    const again = await cancel(bought.orderId, { ticketIds: [Number(second)] });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data.payment.paid).toBe(25);
    expect(await refundsAtStripe(keys, bought.intentId)).toHaveLength(1);
    // A part naming a ticket of an earlier part: refused, nothing changed.
    const overlap = await cancel(bought.orderId, { ticketIds: [first, second] });
    expect(overlap.status).toBe(409);
    expect(overlap.body).toMatchObject({ reason: 'already_cancelled', ticketIds: [second] });

    const rest = await cancel(bought.orderId, { ticketIds: [third, first] });
    expect(rest.status, rest.raw).toBe(200);
    expect(rest.body.data).toMatchObject({ status: 'refunded', payment: { paid: 0 } });
    expect((await refundsAtStripe(keys, bought.intentId)).map((refund) => refund.amount).sort()).toEqual([1250, 2500]);
    expect(await stockOf(bought.typeId)).toEqual({ left: TOTAL, held: 0, sold: 0 });
    expect((await cancel(bought.orderId, { ticketIds: [first] })).body.reason).toBe('already_cancelled');
  });

  it('refunds no shipping for a part; the last part ends the order and refunds the shipping with the rest', async () => {
    const posted = await call('POST', '/api/v2/shipping-method?result=object', {
      token: await adminToken(['shipping:write'], 999_591),
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { name: 'Post, flat', charge: 4, chargeType: 'per_order', requiresShippingInfo: false },
    });
    expect(posted.status, posted.raw).toBe(201);
    const bought = await paidCheckout(keys, relay, { quantity: 2, price: 10, shippingMethodId: posted.body.data.id });
    const order = (await getOrder(Number(bought.orderId)))!;
    expect(order.grandTotal).toBe(24);
    const [first, second] = order.ticketIds as [number, number];

    const part = await cancel(bought.orderId, { ticketIds: [first] });
    expect(part.status, part.raw).toBe(200);
    expect(part.body.data).toMatchObject({ status: 'active', payment: { paid: 14 } });
    const last = await cancel(bought.orderId, { ticketIds: [second] });
    expect(last.status, last.raw).toBe(200);
    expect(last.body.data).toMatchObject({ status: 'refunded', payment: { paid: 0 } });
    const refunds = (await refundsAtStripe(keys, bought.intentId)).map((refund) => refund.amount);
    expect(refunds.sort((a, b) => a - b)).toEqual([400, 1000, 1000]);
  });

  it('refuses a ticket of another order, a repeated id and an empty list with a 400, changing nothing', async () => {
    const event = await seedEvent();
    const typeId = event.ticketTypes[0]!.id;
    const [mine, other] = await Promise.all([
      placeOrder(event, unusedCustomerId(), [typeId, typeId]),
      placeOrder(event, unusedCustomerId(), [typeId]),
    ]);
    const foreign = await cancel(mine.id, { ticketIds: [mine.ticketIds[0], other.ticketIds[0]] });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('body.ticketIds[1]');
    expect((await cancel(mine.id, { ticketIds: [mine.ticketIds[0], String(mine.ticketIds[0])] })).status).toBe(400);
    expect((await cancel(mine.id, { ticketIds: [] })).status).toBe(400);
    expect((await cancel(mine.id, { ticketIds: ['x'] })).status).toBe(400);
    const untouched = (await getOrder(mine.id))!;
    expect(untouched.partCancellations).toBeUndefined();
    const tickets = await readTicketRecords(mine.ticketIds);
    expect([...tickets.values()].map(orderTicketStatus)).toEqual(['active', 'active']);
  });

  it('records the share of a box-office order as due at the desk, once', async () => {
    const event = await seedEvent();
    const typeId = event.ticketTypes[0]!.id;
    const price = event.ticketTypes[0]!.price;
    const order = await placeOrder(event, unusedCustomerId(), [typeId, typeId]);
    const done = await cancel(order.id, { ticketIds: [String(order.ticketIds[1])] });
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data.status).toBe('active');
    const refund = done.body.data.payment.transactions.at(-1);
    expect(refund).toMatchObject({ amount: -price, processor: 'card_present' });
    expect(refund.reference).toMatch(new RegExp(`^order-${order.id}-refund-tickets-[0-9a-f]{24}-card_present$`));
    const again = await cancel(order.id, { ticketIds: [order.ticketIds[1]] });
    expect(again.body.data.payment.transactions).toHaveLength(2);
  });
});

describe('the Stripe stand-in’s partial refunds', () => {
  it('refunds in parts up to what is left, as Stripe does, and refuses more with amount_too_large', async () => {
    const bought = await paidCheckout(keys, relay, { quantity: 2, price: 10 });
    const stripe = stripeSdk(keys.secretKey);
    const part = await stripe.refunds.create({ payment_intent: bought.intentId, amount: 500 });
    expect(part).toMatchObject({ amount: 500, status: 'succeeded' });
    await expect(stripe.refunds.create({ payment_intent: bought.intentId, amount: 1501 })).rejects.toMatchObject({
      code: 'amount_too_large',
    });
    const rest = await stripe.refunds.create({ payment_intent: bought.intentId });
    expect(rest.amount).toBe(1500);
    await expect(stripe.refunds.create({ payment_intent: bought.intentId, amount: 1 })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
    await standInControl(keys, 'POST', 'settle');
  });
});
