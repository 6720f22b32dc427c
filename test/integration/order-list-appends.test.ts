import { afterEach, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { startCancellation } from '#shared/selling/data/order-staff';
import { addTransactions } from '#shared/selling/data/order-lists';
import { getOrder } from '#shared/selling/data/orders';
import { releaseHold } from '#shared/selling/data/reservations';
import type { Order } from '#shared/selling/domain/order';
import { refundStripePayment } from '#shared/selling/use-cases/refunds';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearInterleavings, names, runBefore } from '../support/interleave.ts';
import { payOrder } from '../support/paid-order-issuing.ts';
import { confirmAsBrowser, standInControl, useStripeStandIn } from '../support/stripe.ts';
import { customerToken } from '../support/tokens.ts';

/**
 * An order's `transactions` and `history` are only ever appended to: a writer that records on the order
 * between another's read and its write (a refund reported by Stripe, a cancellation started by staff) keeps its
 * entry, and an entry is recorded once. Each test lets the other writer in just before the use case's write
 * (test/support/interleave.ts), both against the local table and the Stripe stand-in.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const { keys } = useStripeStandIn();

afterEach(() => clearInterleavings());

async function buyer() {
  const customer = await newCustomer();
  return { ...customer, token: await customerToken(customer.id, { email: customer.email }) };
}

async function held(token: string, eventId: number, typeId: number) {
  const answer = await call('POST', RESERVATIONS, { token, body: { eventId, lines: [{ typeId, quantity: 1 }] } });
  expect(answer.status, answer.raw).toBe(201);
  return answer.body.data.id as number;
}

/** A reservation of one ticket checked out over HTTP: its order awaiting payment; its PaymentIntent's events go nowhere. */
async function checkedOut(total = 10) {
  const event = await seedEvent({
    published: true,
    questions: [],
    ticketTypes: [{ name: 'Runner', price: 12.5, total }],
  });
  const typeId = event.ticketTypes[0]!.id;
  const customer = await buyer();
  const reservationId = await held(customer.token, event.id, typeId);
  const answer = await call('POST', `${RESERVATIONS}/${reservationId}/checkout`, {
    token: customer.token,
    body: { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(answer.status, answer.raw).toBe(201);
  const { order, payment } = answer.body.data;
  const intent = { id: (payment.clientSecret as string).split('_secret_')[0]!, clientSecret: payment.clientSecret };
  // The payment's events are recorded by the stand-in, not delivered: the test calls payOrder as the webhook would.
  await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: null });
  return { event, typeId, customer, reservationId, orderId: Number(order.id), intent };
}

/** A Stripe payment succeeded for the intent (as Stripe.js confirms it), in major units as the webhook hands it on. */
async function paid(intent: { id: string; clientSecret: string }) {
  expect((await confirmAsBrowser(keys, intent, 'pm_card_visa')).body.status).toBe('succeeded');
  return { intentId: intent.id, amount: 12.5 };
}

/** Staff start cancelling the order as read (POST /orders/{id}/cancel's first step). */
async function cancellationStarted(order: Order) {
  const at = new Date().toISOString();
  const started = await startCancellation(
    order,
    { at, by: 'admin 7', force: false, outcome: 'cancelled' },
    { at, by: 'admin 7', action: 'cancel_started', force: false },
  );
  expect(started).toBe(true);
}

const orderMove = (orderId: number, also: (text: string) => boolean = () => true) => ({
  command: 'TransactWriteItemsCommand',
  when: (input: Record<string, any>) => names(input, `ORDER#${orderId}`) && also(JSON.stringify(input)),
});

describe("an order's lists, appended", () => {
  it("the payment's claim keeps a refund recorded between its read and its write, and records the payment once", async () => {
    const { orderId, intent } = await checkedOut();
    const payment = await paid(intent);
    // Stripe orders no deliveries: a refund's charge.refunded is recorded (addTransactions) while
    // payment_intent.succeeded's payOrder has read the order and not yet written its claim.
    let refund: Awaited<ReturnType<typeof refundStripePayment>> = [];
    const between = runBefore(db, orderMove(orderId), async () => {
      refund = await refundStripePayment(orderId, intent.id);
      await addTransactions(orderId, refund);
    });

    await payOrder(orderId, payment);
    expect(between.ran).toBe(true);
    const stored = (await getOrder(orderId))!;
    expect(stored.status).not.toBe('awaiting_payment');
    expect(stored.transactions.map(({ amount, reference }) => ({ amount, reference }))).toEqual([
      { amount: -12.5, reference: refund[0]!.reference },
      { amount: 12.5, reference: intent.id },
    ]);
  });

  it("the lapse keeps a history entry written between its read and its write (a cancellation's start)", async () => {
    const { orderId, reservationId } = await checkedOut();
    const order = (await getOrder(orderId))!;
    const between = runBefore(db, orderMove(orderId), () => cancellationStarted(order));

    const after = await releaseHold(reservationId, 'lapsed', new Date(Date.now() + 2 * 3_600_000));
    expect(between.ran).toBe(true);
    expect(after?.status).toBe('lapsed');
    const stored = (await getOrder(orderId))!;
    expect(stored.status).toBe('expired');
    expect(stored.cancellation).toMatchObject({ by: 'admin 7' });
    expect(stored.history?.map(({ by, action }) => ({ by, action }))).toEqual([
      { by: 'admin 7', action: 'cancel_started' },
      { by: 'system', action: 'expired' },
    ]);
  });

  it("a late payment's refund keeps what was recorded meanwhile and records Stripe's refund once", async () => {
    const { event, typeId, customer, reservationId, orderId, intent } = await checkedOut(1);
    const payment = await paid(intent);
    // The reservation is released before the payment's event is handled (the order `expired`), and another
    // buyer holds the last ticket: the payment finds no stock and is refunded.
    const released = await call('DELETE', `${RESERVATIONS}/${reservationId}`, { token: customer.token });
    expect(released.body.data.status).toBe('released');
    await held((await buyer()).token, event.id, typeId);
    // Between the refund's read of the pending order and its move to `refunded`: Stripe's charge.refunded for the
    // refund it just made is recorded, and staff start a cancellation.
    const between = runBefore(
      db,
      orderMove(orderId, (text) => text.includes('"refunded"')),
      async () => {
        await addTransactions(orderId, await refundStripePayment(orderId, intent.id));
        await cancellationStarted((await getOrder(orderId))!);
      },
    );

    expect(await payOrder(orderId, payment)).toBe('refunded');
    expect(between.ran).toBe(true);
    const stored = (await getOrder(orderId))!;
    expect(stored.status).toBe('refunded');
    expect(stored.transactions.map(({ amount }) => amount)).toEqual([12.5, -12.5]);
    expect(new Set(stored.transactions.map(({ reference }) => reference)).size).toBe(2);
    expect(stored.history?.map(({ by, action }) => ({ by, action }))).toEqual([
      { by: `customer ${customer.id}`, action: 'expired' },
      { by: 'admin 7', action: 'cancel_started' },
      { by: 'system', action: 'refunded' },
    ]);
  });
});
