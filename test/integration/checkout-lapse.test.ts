import { afterEach, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { db } from '#shared/data/client';
import { findTicketType } from '#shared/events/data/events';
import { moveOrder } from '#shared/selling/data/order-lists';
import { getOrder } from '#shared/selling/data/orders';
import { dueKey } from '#shared/selling/data/reservation-due';
import { getReservation } from '#shared/selling/data/reservations';
import { readStock } from '#shared/selling/data/stock';
import { lapseDueReservations } from '#shared/selling/use-cases/lapse-reservations';
import { runAs } from '../../bin/local/invoke.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { newCustomer } from '../support/customers.ts';
import { storedItem } from '../support/dynamo-writes.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { mailTo } from '../support/mail.ts';
import { confirmAsBrowser, standInControl, stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { readStats } from '../support/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { handToConsumer, issueBehindWebhook } from '../support/paid-order-issuing.ts';

/**
 * An unpaid checkout's end and a paid one's repair, over HTTP with the Stripe stand-in and
 * through the lapsing job: a lapse or a release closes the order awaiting payment (`expired`, counted, recorded)
 * in its own transaction and cancels its PaymentIntent; a payment that claimed the order first keeps the
 * reservation; an issue that stopped part-way is resumed by the issuing consumer's retry, each ticket once.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const { keys, relay } = useStripeStandIn();

afterEach(async () => {
  resetClock();
  await clearFaults();
});

// The job's lapse alone: its clocks run minutes ahead, where the job's sweep of stuck orders would take another
// file's sale in flight for one stuck (test/integration/stuck-orders.test.ts runs the whole job).
const lapse = () => runAs('release-reservations', () => lapseDueReservations(50_000));
/**
 * The job's tests check out at clocks of their own (20, 40 and 60 minutes on) and lapse 16 minutes after, in that
 * order: each run's due minute is not behind the checkpoint the one before left (the job starts after it; a clock behind
 * it would start an hour back and sweep other files' live holds).
 *
 * A test that runs the job (its first run in a file may sweep an hour of minutes, 4 bounded Queries each) or waits
 * out the SDK's retries of an injected failure.
 */
const SLOW_TEST_TIMEOUT = 60_000;
const attendee = (n: number) => ({ firstName: `Grace${n}`, lastName: 'Hopper', email: `grace${n}@example.com` });

async function buyer() {
  const customer = await newCustomer();
  return { ...customer, token: await customerToken(customer.id, { email: customer.email }) };
}

/** A held reservation of `quantity` checked out: its order awaiting payment and the PaymentIntent's secret. */
async function checkedOut(quantity = 1, total = 10) {
  const event = await seedEvent({
    published: true,
    questions: [],
    ticketTypes: [{ name: 'Runner', price: 12.5, total }],
  });
  const typeId = event.ticketTypes[0]!.id;
  const customer = await buyer();
  const hold = await call('POST', RESERVATIONS, {
    token: customer.token,
    body: { eventId: event.id, lines: [{ typeId, quantity }] },
  });
  expect(hold.status, hold.raw).toBe(201);
  const reservationId = hold.body.data.id as number;
  const answer = await call('POST', `${RESERVATIONS}/${reservationId}/checkout`, {
    token: customer.token,
    body: { attendees: Array.from({ length: quantity }, (_, n) => attendee(n)) },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(answer.status, answer.raw).toBe(201);
  const { order, payment } = answer.body.data;
  const intent = { id: (payment.clientSecret as string).split('_secret_')[0]!, clientSecret: payment.clientSecret };
  await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url });
  return { event, typeId, customer, reservationId, orderId: Number(order.id), intent };
}

async function stockOf(typeId: number) {
  const type = (await findTicketType(typeId))!;
  const shards = await readStock(type);
  return {
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
  };
}

const reservationOf = async (token: string, id: number) =>
  (await call('GET', `${RESERVATIONS}/${id}`, { token })).body.data.status;

/** The staff's view: the order by id (its history) and the event's orders in one status (their exact count). */
async function staffView(eventId: number, orderId: number, status: string) {
  const token = await adminToken();
  const one = await call('GET', `/api/v2/orders/${orderId}`, { token });
  expect(one.status, one.raw).toBe(200);
  const listed = await call('GET', `/api/v2/orders?eventId=${eventId}&status=${status}`, { token });
  expect(listed.status, listed.raw).toBe(200);
  return { order: one.body.data, listed: listed.body };
}

const succeededEvent = async (intentId: string) => {
  const { data } = await standInControl(keys, 'GET', `events?payment_intent=${intentId}`);
  return (data as { id: string; type: string }[]).find((event) => event.type === 'payment_intent.succeeded')!;
};

describe('an unpaid checkout that ends', () => {
  it(
    'lapses by the job: the order expires with its reservation, counted and recorded, its PaymentIntent cancelled so it cannot be paid',
    async () => {
      const start = Date.now() + 20 * 60_000;
      const { event, typeId, customer, reservationId, orderId, intent } = await atTime(start, () => checkedOut(2));
      expect(await stockOf(typeId)).toEqual({ held: 2, sold: 0 });

      // The checkout keeps the reservation 15 minutes for its payment; none came.
      await atTime(start + 16 * 60_000, lapse);
      expect(await reservationOf(customer.token, reservationId)).toBe('lapsed');
      expect((await getOrder(orderId))!).toMatchObject({ status: 'expired', ticketIds: [], transactions: [] });
      expect(await stockOf(typeId)).toEqual({ held: 0, sold: 0 });
      const { order, listed } = await staffView(event.id, orderId, 'expired');
      expect(order.status).toBe('expired');
      expect(order.history.at(-1)).toMatchObject({ by: 'system', action: 'expired' });
      expect(listed.totalCount).toBe(1);
      expect(listed.data.map((entry: { id: string }) => entry.id)).toEqual([String(orderId)]);
      expect((await staffView(event.id, orderId, 'awaiting_payment')).listed.totalCount).toBe(0);

      const atStripe = await stripeSdk(keys.secretKey).paymentIntents.retrieve(intent.id);
      expect(atStripe).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
      const tooLate = await confirmAsBrowser(keys, intent, 'pm_card_visa');
      expect(tooLate.status).toBe(400);
      expect(tooLate.body.error.code).toBe('payment_intent_unexpected_state');
      // The portal lists the order as it ended; a second run changes nothing.
      const orders = await call('GET', '/api/v2/my-account/orders', { token: customer.token });
      expect(orders.body.data.find((entry: { id: string }) => entry.id === String(orderId)).status).toBe('expired');
      await atTime(start + 17 * 60_000, lapse);
      expect((await staffView(event.id, orderId, 'expired')).listed.totalCount).toBe(1);
    },
    SLOW_TEST_TIMEOUT,
  );

  it('released by the buyer: the order expires, recorded as theirs, its PaymentIntent cancelled', async () => {
    const { event, typeId, customer, reservationId, orderId, intent } = await checkedOut();
    const released = await call('DELETE', `${RESERVATIONS}/${reservationId}`, { token: customer.token });
    expect(released.status, released.raw).toBe(200);
    expect(released.body.data.status).toBe('released');
    expect(await stockOf(typeId)).toEqual({ held: 0, sold: 0 });
    const { order, listed } = await staffView(event.id, orderId, 'expired');
    expect(order.history.at(-1)).toMatchObject({ by: `customer ${customer.id}`, action: 'expired' });
    expect(listed.totalCount).toBe(1);
    expect((await stripeSdk(keys.secretKey).paymentIntents.retrieve(intent.id)).status).toBe('canceled');
    // Released again: answered as it is, nothing moves twice; staff cannot cancel what ended (a late payment is
    // the webhook's to take or refund).
    expect((await call('DELETE', `${RESERVATIONS}/${reservationId}`, { token: customer.token })).status).toBe(200);
    expect((await staffView(event.id, orderId, 'expired')).listed.totalCount).toBe(1);
    const cancel = await call('POST', `/api/v2/orders/${orderId}/cancel`, {
      token: await adminToken(),
      body: {},
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(cancel.status, cancel.raw).toBe(409);
    expect(cancel.body).toMatchObject({ reason: 'already_cancelled', orderStatus: 'expired' });
  });

  it(
    'a payment that claimed the order first keeps the reservation: the release is 409, the lapse leaves it, the consumer issues',
    async () => {
      const start = Date.now() + 40 * 60_000;
      const { typeId, customer, reservationId, orderId, intent } = await atTime(start, () => checkedOut());
      // The payment succeeds at Stripe; its delivery is held back, and the webhook's first step (the order's
      // claim) is taken here, as if the delivery had stopped right after it.
      await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { delayMs: 3_600_000 });
      expect((await confirmAsBrowser(keys, intent, 'pm_card_visa')).body.status).toBe('succeeded');
      const order = (await getOrder(orderId))!;
      const time = new Date().toISOString();
      await moveOrder(order, 'pending', {
        transactions: [{ amount: 12.5, processor: 'stripe', reference: intent.id, time }],
        set: { issuedTickets: {} },
      });

      const release = await call('DELETE', `${RESERVATIONS}/${reservationId}`, { token: customer.token });
      expect(release.status).toBe(409);
      expect(release.body.reason).toBe('reservation_paid');
      await atTime(start + 16 * 60_000, lapse);
      expect(await reservationOf(customer.token, reservationId)).toBe('checked_out');
      expect((await getOrder(orderId))!.status).toBe('pending');
      expect(await stockOf(typeId)).toEqual({ held: 1, sold: 0 });

      await standInControl(keys, 'POST', `release?payment_intent=${intent.id}`);
      await issueBehindWebhook(orderId);
      expect((await getOrder(orderId))!).toMatchObject({ status: 'active', ticketIds: [expect.any(Number)] });
      expect(await reservationOf(customer.token, reservationId)).toBe('paid');
      expect(await stockOf(typeId)).toEqual({ held: 0, sold: 1 });
    },
    SLOW_TEST_TIMEOUT,
  );

  it(
    "its due entry stays at the hold's expiry through the checkout; the lapse then re-files it at the checkout's, and lapses it there",
    async () => {
      const start = Date.now() + 60 * 60_000;
      const { customer, reservationId, orderId } = await atTime(start, () => checkedOut());
      const checked = (await getReservation(reservationId))!;
      // The hold's entry, where the hold filed it: the checkout wrote none (its 4 units are the few unpaid ones').
      expect(checked.dueAt! < checked.expiresAt).toBe(true);
      const heldEntry = dueKey(checked);
      expect(await storedItem(heldEntry)).toBeDefined();

      // Past the hold's expiry, before the checkout's: kept, its entry moved to the checkout's expiry.
      await atTime(Date.parse(checked.dueAt!) + 60_000, lapse);
      const kept = (await getReservation(reservationId))!;
      expect(kept).toMatchObject({ status: 'checked_out', dueAt: checked.expiresAt, expiresAt: checked.expiresAt });
      expect(await storedItem(heldEntry)).toBeUndefined();
      expect(await storedItem(dueKey(kept))).toMatchObject({ reservationId });
      expect((await getOrder(orderId))!.status).toBe('awaiting_payment');

      // Past the checkout's: lapsed, its entry gone.
      await atTime(Date.parse(checked.expiresAt) + 60_000, lapse);
      expect(await reservationOf(customer.token, reservationId)).toBe('lapsed');
      expect(await storedItem(dueKey(kept))).toBeUndefined();
      expect((await getOrder(orderId))!.status).toBe('expired');
    },
    SLOW_TEST_TIMEOUT,
  );
});

describe('a paid order whose issue stopped part-way', () => {
  it(
    "is resumed by the consumer's retry: its tickets issued once, then active",
    async () => {
      const { event, typeId, customer, orderId, intent } = await checkedOut(3);
      // The issue's transaction (its three tickets together) fails on every attempt: the consumer reports the order's
      // record failed, so the event source hands it over again. The webhook recorded the payment and answered 2xx.
      const fault = failCalls(db, {
        commands: ['TransactWriteItemsCommand'],
        when: (input) => JSON.stringify(input).includes('"#issued":"issuedTickets"'),
        error: failures.dynamoInternal,
      });
      expect((await confirmAsBrowser(keys, intent, 'pm_card_visa')).body.status).toBe('succeeded');
      await standInControl(keys, 'POST', 'settle');
      const answered = relay.answers.filter(({ event }) => (event.data.object as { id?: string }).id === intent.id);
      expect(answered.map(({ answer }) => answer.status)).toEqual([200]);
      expect(fault.attempts).toBe(0);
      expect((await handToConsumer(orderId)).batchItemFailures).toEqual([{ itemIdentifier: String(orderId) }]);
      expect(fault.attempts).toBeGreaterThan(0);
      const stopped = (await getOrder(orderId))!;
      expect(stopped.status).toBe('pending');
      expect(Object.keys(stopped.issuedTickets!)).toEqual([]);
      expect(await stockOf(typeId)).toEqual({ held: 3, sold: 0 });

      await clearFaults();
      const active = await issueBehindWebhook(orderId);
      expect(active.status).toBe('active');
      expect(active.ticketIds).toHaveLength(3);
      expect(new Set(active.ticketIds).size).toBe(3);
      expect(await stockOf(typeId)).toEqual({ held: 0, sold: 3 });
      expect((await readStats(await adminToken(), event.id)).soldTickets).toBe(3);
      const tickets = await call('GET', '/api/v2/my-account/orders?includeTickets=true', { token: customer.token });
      const listed = tickets.body.data.find((entry: { id: string }) => entry.id === String(orderId));
      expect(listed.tickets.map((ticket: { id: string }) => Number(ticket.id))).toEqual(active.ticketIds);
      const confirmations = (await mailTo(customer.email)).filter((mail) =>
        mail.subject.includes(`(order ${orderId})`),
      );
      expect(confirmations).toHaveLength(1);

      // Delivered once more, and handed to the consumer once more: nothing moves.
      await standInControl(keys, 'POST', `events/${(await succeededEvent(intent.id)).id}/resend`);
      await standInControl(keys, 'POST', 'settle');
      await issueBehindWebhook(orderId);
      expect((await getOrder(orderId))!.ticketIds).toEqual(active.ticketIds);
      expect(await stockOf(typeId)).toEqual({ held: 0, sold: 3 });
    },
    SLOW_TEST_TIMEOUT,
  );

  it(
    "a free order's is resumed as a paid one's: the consumer's retry finishes it, the buyer's retry answers it",
    async () => {
      const event = await seedEvent({
        published: true,
        questions: [],
        ticketTypes: [{ name: 'Free', price: 0, total: 5 }],
      });
      const typeId = event.ticketTypes[0]!.id;
      const customer = await buyer();
      const hold = await call('POST', RESERVATIONS, {
        token: customer.token,
        body: { eventId: event.id, lines: [{ typeId, quantity: 2 }] },
      });
      const reservationId = hold.body.data.id as number;
      const body = { attendees: [attendee(1), attendee(2)] };
      const checkout = () =>
        call('POST', `${RESERVATIONS}/${reservationId}/checkout`, {
          token: customer.token,
          body,
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
      const answered = await checkout();
      expect(answered.status, answered.raw).toBe(201);
      expect(answered.body.data).toMatchObject({ order: { status: 'pending', grandTotal: 0 }, payment: null });
      const orderId = Number(answered.body.data.order.id);
      const fault = failCalls(db, {
        commands: ['TransactWriteItemsCommand'],
        when: (input) => JSON.stringify(input).includes('"#issued":"issuedTickets"'),
        error: failures.dynamoInternal,
      });
      const failed = await handToConsumer(orderId);
      expect(failed.batchItemFailures).toEqual([{ itemIdentifier: `${orderId}` }]);
      expect(fault.attempts).toBeGreaterThan(0);
      expect(await stockOf(typeId)).toEqual({ held: 2, sold: 0 });
      // The buyer's retry meanwhile answers the order, still paid and pending: nothing is checked out twice.
      const retried = await checkout();
      expect(retried.status, retried.raw).toBe(201);
      expect(retried.body.data).toMatchObject({ order: { id: `${orderId}`, status: 'pending' }, payment: null });

      await clearFaults();
      const order = await issueBehindWebhook(orderId);
      expect(order).toMatchObject({ status: 'active', ticketIds: [expect.any(Number), expect.any(Number)] });
      expect(await stockOf(typeId)).toEqual({ held: 0, sold: 2 });
    },
    SLOW_TEST_TIMEOUT,
  );
});
