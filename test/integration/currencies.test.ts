import { beforeAll, describe, expect, it } from 'vitest';
import { findTicketType } from '#shared/events/data/events';
import { customerHold } from '#shared/selling/data/holds';
import { createShippingMethod } from '#shared/selling/data/shipping-methods';
import { readStock } from '#shared/selling/data/stock';
import { createPaymentIntent } from '#shared/selling/services/payments';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { checkedOut, payAsBrowser, refundsAtStripe } from '../support/paid-checkout.ts';
import { stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';

/**
 * Every currency charged in its own unit (shared/money.ts): a yen price goes to Stripe as yen, a dinar price as fils,
 * a refund comes back in the order's currency; a hold Stripe could not charge (below its minimum, above its maximum,
 * a shipping charge the currency cannot take) is refused before anything is held; a price with more decimals than
 * its currency takes is refused where it is written. The Stripe stand-in holds the service to Stripe's own rules.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:read', 'orders:refund', 'events:read', 'events:write'], 999_640);
});

async function buyer() {
  const customer = await newCustomer();
  return { id: customer.id, token: await customerToken(customer.id, { email: customer.email }) };
}

const onSale = (currency: string, price: number) =>
  seedEvent({ published: true, questions: [], currency, ticketTypes: [{ name: 'Runner', price, total: 20 }] });

const heldOf = async (typeId: number) =>
  (await readStock((await findTicketType(typeId))!)).reduce((sum, shard) => sum + shard.held, 0);

describe('a checkout in a zero- or three-decimal currency', () => {
  it("charges a ¥1,500 ticket as 1500 yen at Stripe, activates the order, and refunds the order's ¥1,500", async () => {
    const { intent, orderId } = await checkedOut(keys, relay, { currency: 'JPY', price: 1500 });
    const atStripe = await stripeSdk(keys.secretKey).paymentIntents.retrieve(intent.id);
    expect({ amount: atStripe.amount, currency: atStripe.currency }).toEqual({ amount: 1500, currency: 'jpy' });

    await payAsBrowser(keys, intent);
    const paid = await claimedThenIssued(orderId);
    expect(paid.status).toBe('active');
    expect(paid.transactions).toMatchObject([{ amount: 1500, processor: 'stripe', reference: intent.id }]);

    const cancelled = await call('POST', `/api/v2/orders/${orderId}/cancel`, {
      token: staff,
      body: {},
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(cancelled.status, cancelled.raw).toBe(200);
    const [refund] = await refundsAtStripe(keys, intent.id);
    expect(refund).toMatchObject({ amount: 1500, status: 'succeeded' });
    expect(cancelled.body.data.payment).toEqual({
      paid: 0,
      transactions: [
        expect.objectContaining({ amount: 1500, reference: intent.id }),
        expect.objectContaining({ amount: -1500, reference: refund!.id }),
      ],
    });
  });

  it("answers the browser the amount in Stripe's unit: KWD 1.5 is 1500 fils, as the PaymentIntent has it", async () => {
    const event = await onSale('KWD', 1.5);
    const customer = await buyer();
    const hold = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }] },
    });
    expect(hold.status, hold.raw).toBe(201);
    expect(hold.body.data.amounts).toEqual({
      tickets: 1.5,
      discount: 0,
      fees: 0,
      shipping: 0,
      tax: 0,
      total: 1.5,
      currency: 'KWD',
    });
    const answer = await call('POST', `${RESERVATIONS}/${hold.body.data.id}/checkout`, {
      token: customer.token,
      body: { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(answer.status, answer.raw).toBe(201);
    expect(answer.body.data.payment).toMatchObject({ amount: 1500, currency: 'KWD' });
    const intentId = answer.body.data.payment.clientSecret.split('_secret_')[0];
    const atStripe = await stripeSdk(keys.secretKey).paymentIntents.retrieve(intentId);
    expect({ amount: atStripe.amount, currency: atStripe.currency }).toEqual({ amount: 1500, currency: 'kwd' });
  });
});

describe("POST /my-account/reservations within Stripe's limits", () => {
  it("refuses a total below the currency's Stripe minimum with 409 amount_below_minimum, holding nothing", async () => {
    const event = await onSale('EUR', 0.3);
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const answer = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId, quantity: 1 }] },
    });
    expect(answer.status, answer.raw).toBe(409);
    expect(answer.body).toMatchObject({
      reason: 'amount_below_minimum',
      total: 0.3,
      minimum: 0.5,
      maximum: 999_999.99,
      currency: 'EUR',
    });
    expect(await heldOf(typeId)).toBe(0);
    expect(await customerHold(customer.id, event.id, new Date())).toBeUndefined();

    // Two of them reach the minimum.
    const two = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId, quantity: 2 }] },
    });
    expect(two.status, two.raw).toBe(201);
  });

  it('refuses a total above the most Stripe charges (8 digits of its unit) with 409 amount_above_maximum', async () => {
    const event = await onSale('EUR', 1_000_000);
    const typeId = event.ticketTypes[0]!.id;
    const customer = await buyer();
    const answer = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId, quantity: 1 }] },
    });
    expect(answer.status, answer.raw).toBe(409);
    expect(answer.body).toMatchObject({ reason: 'amount_above_maximum', total: 1_000_000, maximum: 999_999.99 });
    expect(await heldOf(typeId)).toBe(0);
  });

  it('holds free tickets (a total of 0 charges nothing)', async () => {
    const event = await onSale('EUR', 0);
    const customer = await buyer();
    const answer = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }] },
    });
    expect(answer.status, answer.raw).toBe(201);
    expect(answer.body.data.amounts.total).toBe(0);
  });

  it("refuses a shipping charge the event's currency cannot take (9.5 for a JPY event) with 409, holding nothing", async () => {
    const event = await onSale('JPY', 1000);
    const typeId = event.ticketTypes[0]!.id;
    const method = await createShippingMethod({
      name: 'Courier',
      description: '',
      charge: 9.5,
      twoPlusCharge: 0,
      chargeType: 'per_order',
      hasETickets: false,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    });
    const customer = await buyer();
    const answer = await call('POST', RESERVATIONS, {
      token: customer.token,
      body: { eventId: event.id, lines: [{ typeId, quantity: 1 }], shippingMethodId: method.id },
    });
    expect(answer.status, answer.raw).toBe(409);
    expect(answer.body).toMatchObject({
      reason: 'shipping_charge_not_in_currency',
      shippingMethodId: method.id,
      charge: 9.5,
      currency: 'JPY',
    });
    expect(await heldOf(typeId)).toBe(0);
  });
});

describe("ticket type prices in their event's currency", () => {
  it('refuses a JPY price of 1000.5 with a 400 naming it, on create, on add and on edit', async () => {
    const created = await call('POST', '/api/v2/events', {
      token: staff,
      body: {
        title: 'Yen 10K',
        start: '2031-06-01T09:00:00+09:00',
        timezone: 'Asia/Tokyo',
        currency: 'JPY',
        ticketTypes: [{ name: 'Runner', price: 1000.5, total: 10 }],
      },
    });
    expect(created.status, created.raw).toBe(400);
    expect(created.body.errors).toEqual([
      { path: 'body.ticketTypes.0.price', message: 'must be a whole number of JPY (no decimal places)' },
    ]);

    const event = await call('POST', '/api/v2/events', {
      token: staff,
      body: { title: 'Yen 10K', start: '2031-06-01T09:00:00+09:00', timezone: 'Asia/Tokyo', currency: 'JPY' },
    });
    expect(event.status, event.raw).toBe(201);
    const types = `/api/v2/events/${event.body.data.id}/ticket-types`;
    const added = await call('POST', types, { token: staff, body: { name: 'Runner', price: 1000.5, total: 10 } });
    expect(added.status, added.raw).toBe(400);
    expect(added.body.errors).toEqual([expect.objectContaining({ path: 'body.price' })]);

    const fine = await call('POST', types, { token: staff, body: { name: 'Runner', price: 1000, total: 10 } });
    expect(fine.status, fine.raw).toBe(201);
    const edited = await call('PATCH', `${types}/${fine.body.data.id}`, { token: staff, body: { price: 999.99 } });
    expect(edited.status, edited.raw).toBe(400);
    expect(edited.body.errors).toEqual([expect.objectContaining({ path: 'body.price' })]);
  });

  it("refuses an event's currency its types' prices do not fit with 409 prices_not_in_currency", async () => {
    const event = await seedEvent({ currency: 'EUR', ticketTypes: [{ name: 'Runner', price: 12.5, total: 10 }] });
    const answer = await call('PATCH', `/api/v2/events/${event.id}`, { token: staff, body: { currency: 'JPY' } });
    expect(answer.status, answer.raw).toBe(409);
    expect(answer.body).toMatchObject({
      reason: 'prices_not_in_currency',
      typeIds: [event.ticketTypes[0]!.id],
      currency: 'JPY',
    });
    const read = await call('GET', `/api/v2/events/${event.id}`, { token: staff });
    expect(read.body.data.currency).toBe('EUR');
  });
});

describe("the Stripe stand-in keeps Stripe's currency rules", () => {
  const create = (amount: number, currency: string) =>
    stripeSdk(keys.secretKey)
      .paymentIntents.create({ amount, currency })
      .then(
        () => ({ code: 'created' }),
        (error: { code?: string }) => ({ code: error.code }),
      );

  it('refuses below the minimum, above the maximum, and a three-decimal amount whose last digit is not 0', async () => {
    expect(await create(49, 'eur')).toEqual({ code: 'amount_too_small' });
    expect(await create(49, 'jpy')).toEqual({ code: 'amount_too_small' });
    expect(await create(50, 'jpy')).toEqual({ code: 'created' });
    expect(await create(100_000_000, 'eur')).toEqual({ code: 'amount_too_large' });
    expect(await create(1505, 'kwd')).toEqual({ code: 'invalid_charge_amount' });
    expect(await create(1500, 'kwd')).toEqual({ code: 'created' });
    expect(await create(550, 'isk')).toEqual({ code: 'invalid_charge_amount' });
  });

  it("answers Stripe's refusal of an amount as 409 with the reason, never a 500 (a currency its table does not list)", async () => {
    const request = { orderId: 1, reservationId: 1, amount: 49, currency: 'KWD', customerEmail: 'ada@example.com' };
    await expect(createPaymentIntent(request, crypto.randomUUID())).rejects.toMatchObject({
      reason: 'amount_below_minimum',
      details: { processorCode: 'amount_too_small' },
    });
    await expect(createPaymentIntent({ ...request, amount: 100_000_000 }, crypto.randomUUID())).rejects.toMatchObject({
      reason: 'amount_above_maximum',
    });
  });
});
