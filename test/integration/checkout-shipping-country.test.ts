import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * The checkout's `shippingCountry` ("domestic only unless `allowInternational`") over HTTP: given
 * with the address where the method posts the tickets, the stage's home country (SHIPPING_HOME_COUNTRY, NL in the
 * tests' environment) only for a domestic-only method, any country for an international one, and on the order.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const attendee = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

async function method(body: Record<string, unknown>) {
  const posted = await call('POST', '/api/v2/shipping-method?result=object', { token: await adminToken(), body });
  expect(posted.status, posted.raw).toBe(201);
  return posted.body.data.id as number;
}

/** A new buyer's reservation of one ticket of a new event without questions, shipped by `shippingMethodId`. */
async function reserved(shippingMethodId?: number) {
  const event = await seedEvent({
    published: true,
    questions: [],
    ticketTypes: [{ name: 'Runner', price: 20, total: 10 }],
  });
  const customer = await newCustomer();
  const token = await customerToken(customer.id, { email: customer.email });
  const answer = await call('POST', RESERVATIONS, {
    token,
    body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }], shippingMethodId },
  });
  expect(answer.status, answer.raw).toBe(201);
  const id = answer.body.data.id as number;
  return {
    id,
    checkout: (body: Record<string, unknown>) =>
      call('POST', `${RESERVATIONS}/${id}/checkout`, {
        token,
        body: { attendees: [attendee], ...body },
        headers: { 'idempotency-key': crypto.randomUUID() },
      }),
    status: async () => (await call('GET', `${RESERVATIONS}/${id}`, { token })).body.data.status as string,
    orders: async () => (await call('GET', `/api/v2/my-account/orders?event=${event.id}`, { token })).body.data,
  };
}

const fields = (answer: { body: { errors?: { path: string }[] } }) => answer.body.errors?.map((error) => error.path);

describe('the checkout ships within the home country unless the method allows international', () => {
  it('refuses a missing, unknown, lower-case or foreign country for a domestic-only method, writing nothing; takes the home country and shows it on the order', async () => {
    const domestic = await method({ name: 'Post', charge: 4, requiresShippingInfo: true, allowInternational: false });
    const reservation = await reserved(domestic);
    const address = '1 Canal Street, Amsterdam';

    const missing = await reservation.checkout({ shippingAddress: address });
    expect(missing.status, missing.raw).toBe(400);
    expect(missing.body.errors).toEqual([
      { path: 'body.shippingCountry', message: 'Required: Post posts the tickets.' },
    ]);
    for (const unknown of ['XX', 'nl', 'NLD', 'EU', '']) {
      const refused = await reservation.checkout({ shippingAddress: address, shippingCountry: unknown });
      expect(refused.status, unknown).toBe(400);
      expect(fields(refused), unknown).toEqual(['body.shippingCountry']);
      expect(JSON.stringify(refused.body), unknown).toContain('ISO 3166-1 alpha-2');
    }
    const foreign = await reservation.checkout({
      shippingAddress: 'Unter den Linden 1, Berlin',
      shippingCountry: 'DE',
    });
    expect(foreign.status, foreign.raw).toBe(400);
    expect(foreign.body.errors).toEqual([
      {
        path: 'body.shippingCountry',
        message: 'Post posts within NL only: choose a method that allows international shipping.',
      },
    ]);
    // Nothing written by any of them: the reservation still holds, no order.
    expect(await reservation.status()).toBe('held');
    expect(await reservation.orders()).toEqual([]);

    const home = await reservation.checkout({ shippingAddress: address, shippingCountry: 'NL' });
    expect(home.status, home.raw).toBe(201);
    const [order] = await reservation.orders();
    expect(order).toMatchObject({
      id: home.body.data.order.id,
      shipping: { shippingMethodId: domestic, address, country: 'NL' },
    });
  });

  it('takes any country for a method that allowInternational', async () => {
    const abroad = await method({ name: 'Courier', charge: 9, requiresShippingInfo: true, allowInternational: true });
    const reservation = await reserved(abroad);
    const address = 'Unter den Linden 1, Berlin';
    const answer = await reservation.checkout({ shippingAddress: address, shippingCountry: 'DE' });
    expect(answer.status, answer.raw).toBe(201);
    const [order] = await reservation.orders();
    expect(order.shipping).toEqual({ shippingMethodId: abroad, address, country: 'DE' });
    // The staff who post the tickets read the same address on the order.
    const staff = await call('GET', `/api/v2/orders/${order.id}`, { token: await adminToken(['orders:read']) });
    expect(staff.status, staff.raw).toBe(200);
    expect(staff.body.data.shipping).toEqual({ shippingMethodId: abroad, address, country: 'DE' });
  });

  it('refuses a country, as an address, where the method posts nothing or there is no method', async () => {
    const eTickets = await method({ name: 'E-ticket', charge: 0, hasETickets: true, requiresShippingInfo: false });
    for (const reservation of [await reserved(eTickets), await reserved()]) {
      const refused = await reservation.checkout({ shippingCountry: 'NL' });
      expect(refused.status, refused.raw).toBe(400);
      expect(refused.body.errors).toEqual([
        { path: 'body.shippingCountry', message: 'The shipping method takes no address.' },
      ]);
      expect(await reservation.status()).toBe('held');
      expect(await reservation.orders()).toEqual([]);
    }
  });
});
