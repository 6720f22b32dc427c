import { describe, expect, it } from 'vitest';
import { findTicketType } from '#shared/events/data/events';
import { getOrder } from '#shared/selling/data/orders';
import { readStock } from '#shared/selling/data/stock';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { mailTo } from '../support/mail.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { confirmAsBrowser, standInControl, useStripeStandIn } from '../support/stripe.ts';
import { claimedThenIssued, issueBehindWebhook } from '../support/paid-order-issuing.ts';
import { readStats } from '../support/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * The checkout over HTTP with the Stripe stand-in: a held reservation becomes an order awaiting
 * payment; the browser confirms as Stripe.js does; the stand-in's signed `payment_intent.*` deliveries,
 * relayed to the webhook route, issue the tickets once however often and in whatever order they come, or
 * refund a late payment whose tickets are gone.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const { keys, relay } = useStripeStandIn();

const attendee = (n: number) => ({ firstName: `Ada${n}`, lastName: 'Lovelace', email: `ada${n}@example.com` });

async function buyer() {
  const customer = await newCustomer();
  return { ...customer, token: await customerToken(customer.id, { email: customer.email }) };
}

async function held(token: string, eventId: number, typeId: number, quantity = 2) {
  const answer = await call('POST', RESERVATIONS, { token, body: { eventId, lines: [{ typeId, quantity }] } });
  expect(answer.status, answer.raw).toBe(201);
  return answer.body.data as { id: number; amounts: { total: number } };
}

const checkout = (token: string, id: number, body: unknown, key = crypto.randomUUID()) =>
  call('POST', `${RESERVATIONS}/${id}/checkout`, { token, body, headers: { 'idempotency-key': key } });

/** Confirms the checkout's PaymentIntent with `card` as Stripe.js does, its events relayed here, and lets them go. */
async function pay(payment: { clientSecret: string }, card: string, switches: Record<string, unknown> = {}) {
  const intent = { id: payment.clientSecret.split('_secret_')[0]!, clientSecret: payment.clientSecret };
  await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url, ...switches });
  const confirmed = await confirmAsBrowser(keys, intent, card);
  await standInControl(keys, 'POST', 'settle');
  return { intent, confirmed };
}

const answersFor = (intentId: string) =>
  relay.answers.filter(({ event }) => (event.data.object as { id?: string }).id === intentId);

async function stockOf(typeId: number) {
  const type = (await findTicketType(typeId))!;
  const shards = await readStock(type);
  return {
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
  };
}

const onSale = (total = 100, price = 12.5) =>
  seedEvent({ published: true, questions: [], ticketTypes: [{ name: 'Runner', price, total }] });

describe('POST /my-account/reservations/{id}/checkout', () => {
  it('buys: the order awaits payment, Stripe.js confirms, the webhook records the payment and the consumer issues the tickets', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, typeId);

    const answer = await checkout(customer.token, reservation.id, { attendees: [attendee(1), attendee(2)] });
    expect(answer.status, answer.raw).toBe(201);
    const { order, payment } = answer.body.data;
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      grandTotal: 25,
      currency: 'EUR',
      reservationId: reservation.id,
    });
    expect(payment).toMatchObject({
      processor: 'stripe',
      amount: 2500,
      currency: 'EUR',
      publishableKey: keys.publishableKey,
    });
    const checkedOut = await call('GET', `${RESERVATIONS}/${reservation.id}`, { token: customer.token });
    expect(checkedOut.body.data.status).toBe('checked_out');

    const { intent, confirmed } = await pay(payment, 'pm_card_visa');
    expect(confirmed.body.status).toBe('succeeded');
    expect(answersFor(intent.id).map(({ answer }) => answer.status)).toEqual([200]);
    const claimed = (await getOrder(Number(order.id)))!;
    expect(claimed).toMatchObject({ status: 'pending', ticketIds: [] });
    expect(claimed.transactions).toMatchObject([{ amount: 25, processor: 'stripe', reference: intent.id }]);

    await issueBehindWebhook(order.id);
    const stored = (await getOrder(Number(order.id)))!;
    expect(stored.status).toBe('active');
    expect(stored.ticketIds).toHaveLength(2);
    expect(stored.transactions).toMatchObject([{ amount: 25, processor: 'stripe', reference: intent.id }]);
    const orders = await call('GET', '/api/v2/my-account/orders?includeTickets=true', { token: customer.token });
    expect(orders.status, orders.raw).toBe(200);
    const listed = orders.body.data.find((entry: { id: string }) => entry.id === order.id);
    expect(listed).toMatchObject({ status: 'active' });
    expect(listed.tickets).toHaveLength(2);
    expect((await call('GET', `${RESERVATIONS}/${reservation.id}`, { token: customer.token })).body.data.status).toBe(
      'paid',
    );
    expect(await stockOf(typeId)).toEqual({ held: 0, sold: 2 });
    expect((await readStats(await adminToken(), event.id)).soldTickets).toBe(2);
    // The confirmation went to the buyer once, however the payment arrived.
    const mails = await mailTo(customer.email);
    expect(mails.filter((mail) => mail.subject.includes(`(order ${order.id})`))).toHaveLength(1);
  });

  it('a declined card changes nothing: the order still awaits payment and the reservation holds', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, typeId, 1);
    const { order, payment } = (await checkout(customer.token, reservation.id, { attendees: [attendee(1)] })).body.data;

    const { intent, confirmed } = await pay(payment, 'pm_card_chargeDeclined');
    expect(confirmed.body.error ?? confirmed.body.last_payment_error).toBeTruthy();
    expect(answersFor(intent.id).map(({ event }) => event.type)).toContain('payment_intent.payment_failed');
    expect((await getOrder(Number(order.id)))!.status).toBe('awaiting_payment');
    expect((await call('GET', `${RESERVATIONS}/${reservation.id}`, { token: customer.token })).body.data.status).toBe(
      'checked_out',
    );
    expect(await stockOf(typeId)).toEqual({ held: 1, sold: 0 });
    // Checking out again answers the same order and payment, to confirm again.
    const again = await checkout(customer.token, reservation.id, { attendees: [attendee(1)] });
    expect(again.status).toBe(201);
    expect(again.body.data.order.id).toBe(order.id);
    expect(again.body.data.payment.clientSecret).toBe(payment.clientSecret);
  });

  it('delivered twice and out of order: one paid order, its tickets issued once', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, typeId);
    const { order, payment } = (
      await checkout(customer.token, reservation.id, { attendees: [attendee(1), attendee(2)] })
    ).body.data;

    // A declined card, then a good one: the failure is held back and sent after the success, each event twice.
    const { intent } = await pay(payment, 'pm_card_chargeDeclined', { twice: true, outOfOrder: true });
    await confirmAsBrowser(keys, intent, 'pm_card_visa');
    await standInControl(keys, 'POST', `release?payment_intent=${intent.id}`);
    const types = answersFor(intent.id).map(({ event }) => event.type);
    expect(types.filter((type) => type === 'payment_intent.succeeded')).toHaveLength(2);
    expect(types).toContain('payment_intent.payment_failed');
    expect(answersFor(intent.id).every(({ answer }) => answer.status === 200)).toBe(true);
    // The consumer handed the order twice (a retried batch) issues it once.
    await claimedThenIssued(order.id);
    await issueBehindWebhook(order.id);
    const stored = (await getOrder(Number(order.id)))!;
    expect(stored.status).toBe('active');
    expect(stored.ticketIds).toHaveLength(2);
    expect(stored.transactions).toHaveLength(1);
    expect(await stockOf(typeId)).toEqual({ held: 0, sold: 2 });
  });

  it('a late payment takes the tickets while stock is left, and is refunded in full once it is gone, the buyer told', async () => {
    const event = await onSale(1);
    const typeId = event.ticketTypes[0]!.id;
    const late = await buyer();
    const reservation = await held(late.token, event.id, typeId, 1);
    const { order, payment } = (await checkout(late.token, reservation.id, { attendees: [attendee(1)] })).body.data;
    // The buyer pays, but Stripe's event comes late: the reservation ends first (its order `expired`; the
    // PaymentIntent, already paid, cannot be cancelled), and another buyer takes the last ticket.
    const { intent } = await pay(payment, 'pm_card_visa', { delayMs: 3_600_000 });
    expect((await call('DELETE', `${RESERVATIONS}/${reservation.id}`, { token: late.token })).body.data.status).toBe(
      'released',
    );
    expect((await getOrder(Number(order.id)))!.status).toBe('expired');
    const other = await buyer();
    const theirs = await held(other.token, event.id, typeId, 1);
    const bought = (await checkout(other.token, theirs.id, { attendees: [attendee(2)] })).body.data;
    await pay(bought.payment, 'pm_card_visa');
    expect((await claimedThenIssued(bought.order.id)).status).toBe('active');

    await standInControl(keys, 'POST', `release?payment_intent=${intent.id}`);
    expect(answersFor(intent.id).every(({ answer }) => answer.status === 200)).toBe(true);
    await claimedThenIssued(order.id);
    const refunded = (await getOrder(Number(order.id)))!;
    expect(refunded.status).toBe('refunded');
    expect(refunded.ticketIds).toEqual([]);
    expect(refunded.transactions.map((transaction) => transaction.amount)).toEqual([12.5, -12.5]);
    expect(refunded.history?.map(({ by, action }) => ({ by, action }))).toEqual([
      { by: `customer ${late.id}`, action: 'expired' },
      { by: 'system', action: 'refunded' },
    ]);
    expect(await stockOf(typeId)).toEqual({ held: 0, sold: 1 });
    // The buyer is told, once: refunded in full, and why.
    const told = (await mailTo(late.email)).filter((mail) => mail.subject.includes(`order ${order.id} was refunded`));
    expect(told).toHaveLength(1);
    expect(told[0]!.body.text).toContain('EUR 12.50 is refunded in full');
    expect(told[0]!.body.text).toContain('sold meanwhile');
  });

  it('a late payment with stock still there takes its tickets', async () => {
    const event = await onSale(5);
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, typeId, 1);
    const { order, payment } = (await checkout(customer.token, reservation.id, { attendees: [attendee(1)] })).body.data;
    const { intent } = await pay(payment, 'pm_card_visa', { delayMs: 3_600_000 });
    await call('DELETE', `${RESERVATIONS}/${reservation.id}`, { token: customer.token });
    expect((await getOrder(Number(order.id)))!.status).toBe('expired');
    await standInControl(keys, 'POST', `release?payment_intent=${intent.id}`);
    await claimedThenIssued(order.id);
    expect((await getOrder(Number(order.id)))!).toMatchObject({ status: 'active', ticketIds: [expect.any(Number)] });
    expect(await stockOf(typeId)).toEqual({ held: 0, sold: 1 });
  });

  it('a free order is paid at once, without Stripe, and issued behind the answer as a paid one is', async () => {
    const event = await onSale(10, 0);
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, event.ticketTypes[0]!.id, 1);
    const answer = await checkout(customer.token, reservation.id, { attendees: [attendee(1)] });
    expect(answer.status, answer.raw).toBe(201);
    expect(answer.body.data).toMatchObject({ order: { status: 'pending', grandTotal: 0 }, payment: null });
    // A retry answers the same order, paid, its tickets to follow.
    const again = await checkout(customer.token, reservation.id, { attendees: [attendee(1)] });
    expect(again.body.data, again.raw).toEqual(answer.body.data);
    const active = await claimedThenIssued(answer.body.data.order.id);
    expect(active).toMatchObject({ status: 'active', transactions: [] });
    expect(active.ticketIds).toHaveLength(1);
    // Its confirmation mailed once, by the consumer's issue.
    const mails = await mailTo(customer.email);
    expect(mails.filter((mail) => mail.subject.includes(`(order ${active.id})`))).toHaveLength(1);
  });

  it("refuses another customer's reservation (404), a client-sent amount and a wrong attendee count (400)", async () => {
    const event = await onSale();
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, event.ticketTypes[0]!.id, 2);
    const other = await buyer();
    expect((await checkout(other.token, reservation.id, { attendees: [attendee(1), attendee(2)] })).status).toBe(404);
    const priced = await checkout(customer.token, reservation.id, { attendees: [attendee(1), attendee(2)], amount: 1 });
    expect(priced.status).toBe(400);
    const short = await checkout(customer.token, reservation.id, { attendees: [attendee(1)] });
    expect(short.status, short.raw).toBe(400);
    expect(JSON.stringify(short.body)).toContain('body.attendees');
    expect((await call('GET', `${RESERVATIONS}/${reservation.id}`, { token: customer.token })).body.data.status).toBe(
      'held',
    );
  });

  it("asks each attendee the event's questions (required ones required) and the address where the method posts; the order shows both, and each ticket its barcode", async () => {
    const event = await seedEvent({ published: true, ticketTypes: [{ name: 'Runner', price: 20, total: 10 }] });
    const [contact, size] = event.questions;
    const posted = await call('POST', '/api/v2/shipping-method?result=object', {
      token: await adminToken(),
      body: { name: 'Post', charge: 4, requiresShippingInfo: true },
    });
    expect(posted.status, posted.raw).toBe(201);
    const customer = await buyer();
    const reserved = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: {
        eventId: event.id,
        lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }],
        shippingMethodId: posted.body.data.id,
      },
    });
    expect(reserved.status, reserved.raw).toBe(201);
    expect(reserved.body.data.amounts).toMatchObject({ tickets: 20, shipping: 4, total: 24 });
    const reservationId = reserved.body.data.id;

    // Neither the required answer nor the address: one 400 naming both fields, nothing changed.
    const bare = await checkout(customer.token, reservationId, { attendees: [attendee(1)] });
    expect(bare.status, bare.raw).toBe(400);
    expect(bare.body.errors).toEqual([
      { path: 'body.attendees.0.answers', message: `Question ${contact!.id} is required.` },
      { path: 'body.shippingAddress', message: 'Required: Post posts the tickets.' },
      { path: 'body.shippingCountry', message: 'Required: Post posts the tickets.' },
    ]);
    const unaddressed = await checkout(customer.token, reservationId, {
      attendees: [{ ...attendee(1), answers: [{ questionId: contact!.id, answerText: '+44 7700 900123' }] }],
    });
    expect(unaddressed.status).toBe(400);
    expect(unaddressed.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'body.shippingAddress',
      'body.shippingCountry',
    ]);
    const status = await call('GET', `${RESERVATIONS}/${reservationId}`, { token: customer.token });
    expect(status.body.data.status).toBe('held');

    const answers = [
      { questionId: contact!.id, answerText: '+44 7700 900123' },
      { questionId: size!.id, answerId: size!.options[1]!.id },
    ];
    const address = '1 Canal Street, Amsterdam';
    const answer = await checkout(customer.token, reservationId, {
      attendees: [{ ...attendee(1), answers }],
      shippingAddress: address,
      shippingCountry: 'NL',
    });
    expect(answer.status, answer.raw).toBe(201);
    await pay(answer.body.data.payment, 'pm_card_visa');
    await claimedThenIssued(answer.body.data.order.id);
    const orders = await call(
      'GET',
      `/api/v2/my-account/orders?includeTickets=true&includeAnswers=true&event=${event.id}`,
      {
        token: customer.token,
      },
    );
    const [order] = orders.body.data;
    expect(order).toMatchObject({
      id: answer.body.data.order.id,
      status: 'active',
      shipping: { shippingMethodId: posted.body.data.id, address, country: 'NL' },
    });
    expect(order.tickets).toHaveLength(1);
    expect(order.tickets[0].attendeeQuestions).toEqual(answers);
    const staffView = await call('GET', `/api/v2/tickets/${order.tickets[0].id}`, { token: await adminToken() });
    expect(order.tickets[0].barcode).toBe(staffView.body.data.barcode);
    // Without includeTickets the entry keeps its shipping; an order without a method has none.
    const plain = await call('GET', `/api/v2/my-account/orders?event=${event.id}`, { token: customer.token });
    expect(plain.body.data[0].shipping).toEqual({ shippingMethodId: posted.body.data.id, address, country: 'NL' });
  });

  it('checks out only a held reservation: a released one is 409 reservation_not_held', async () => {
    const event = await onSale();
    const customer = await buyer();
    const reservation = await held(customer.token, event.id, event.ticketTypes[0]!.id, 1);
    await call('DELETE', `${RESERVATIONS}/${reservation.id}`, { token: customer.token });
    const refused = await checkout(customer.token, reservation.id, { attendees: [attendee(1)] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'reservation_not_held', reservationStatus: 'released' });
  });
});
