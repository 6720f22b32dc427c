import { beforeAll, describe, expect, it } from 'vitest';
import { findTicketType } from '#shared/events/data/events';
import { createShippingMethod } from '#shared/selling/data/shipping-methods';
import { readStock } from '#shared/selling/data/stock';
import type { NewEvent } from '#shared/events/domain/event';
import type { TaxRule } from '#shared/selling/domain/pricing-schemas';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { parsed } from '../support/pdf-text.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { deskSale } from '../support/desk-sales.ts';
import { mailTo } from '../support/mail.ts';
import { checkedOut, payAsBrowser, refundsAtStripe } from '../support/paid-checkout.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { stripeSdk, useStripeStandIn } from '../support/stripe.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Taxes, booking fees and itemised amounts over HTTP: a hold prices itself from the server's settings only (a type's
 * tax, the event's fee and its taxes on the fee and on shipping: shared/selling/domain/sale-prices.ts), the checkout charges
 * its total, the order, its tickets (`taxAmount`), the buyer's mail and the box office carry the same figures, and a
 * part's cancel refunds what its tickets cost.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const VAT = (rate: number, inclusive = true): TaxRule => ({ name: 'VAT', rate, inclusive });
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:read', 'orders:refund', 'orders:sell', 'events:read', 'events:write'], 999_660);
});

type Sale = Partial<NewEvent> & { types: { price: number; tax?: TaxRule }[] };

/** A hold over HTTP of `quantities` (one per type) of an event on sale with these settings. */
async function hold(sale: Sale, quantities: number[], shippingMethodId?: number) {
  const { types, ...settings } = sale;
  const event = await seedEvent({
    published: true,
    questions: [],
    ...settings,
    ticketTypes: types.map((type, n) => ({ name: `Type ${n}`, total: 50, ...type })),
  });
  const customer = await newCustomer();
  const answer = await call('POST', RESERVATIONS, {
    token: await customerToken(customer.id),
    body: {
      eventId: event.id,
      lines: quantities.map((quantity, n) => ({ typeId: event.ticketTypes[n]!.id, quantity })),
      ...(shippingMethodId ? { shippingMethodId } : {}),
    },
  });
  expect(answer.status, answer.raw).toBe(201);
  return answer.body.data;
}

const sum = (values: number[]) => values.reduce((total, value) => total + Math.round(value * 100), 0) / 100;

describe('a hold priced with taxes and fees', () => {
  it('takes a tax out of an inclusive price and adds an exclusive one, per currency: EUR 121 at 21 %, USD 100 at 8.875 %, JPY 1,100 at 10 %', async () => {
    const euro = await hold({ currency: 'EUR', types: [{ price: 121, tax: VAT(21) }] }, [1]);
    expect(euro.amounts).toEqual({
      tickets: 121,
      discount: 0,
      fees: 0,
      shipping: 0,
      tax: 21,
      total: 121,
      currency: 'EUR',
    });
    expect(euro.lines[0]).toMatchObject({ unitPrice: 121, discount: 0, fee: 0, tax: 21, amount: 121 });
    const dollar = await hold(
      { currency: 'USD', types: [{ price: 100, tax: { name: 'Sales tax', rate: 8.875, inclusive: false } }] },
      [1],
    );
    expect(dollar.amounts).toMatchObject({ tickets: 100, tax: 8.88, total: 108.88 });
    expect(dollar.lines[0]).toMatchObject({ unitPrice: 100, tax: 8.88, amount: 108.88 });
    const yen = await hold(
      { currency: 'JPY', types: [{ price: 1100, tax: { name: '消費税', rate: 10, inclusive: true } }] },
      [1],
    );
    expect(yen.amounts).toMatchObject({ tickets: 1100, tax: 100, total: 1100 });
  });

  it('adds a booking fee per ticket and in percent, taxed as the event says, on its own line', async () => {
    const held = await hold(
      {
        currency: 'EUR',
        bookingFee: { perTicket: 1, percent: 2.5 },
        feeTax: VAT(21, false),
        types: [{ price: 20, tax: VAT(21) }],
      },
      [2],
    );
    // 2 × 1.00 + 2.5 % of 40.00 = 3.00 of fee, 0.63 of VAT added to it; the tickets' 6.94 of VAT is in their price.
    expect(held.lines[0]).toMatchObject({ unitPrice: 20, discount: 0, fee: 3, tax: 7.57, amount: 43.63 });
    expect(held.amounts).toEqual({
      tickets: 40,
      discount: 0,
      fees: 3,
      shipping: 0,
      tax: 7.57,
      total: 43.63,
      currency: 'EUR',
    });
  });

  it("shows each type's booking fee before the hold: what a hold of one ticket adds as its fee and the fee's tax", async () => {
    // 1.00 + 2.5 % of the price, with 21 % of VAT added: 1.50 + 0.32 on 20.00; 1.83 + 0.38 on 33.33.
    for (const [price, expected] of [
      [20, 1.82],
      [33.33, 2.21],
    ]) {
      const sale = { currency: 'EUR', bookingFee: { perTicket: 1, percent: 2.5 }, feeTax: VAT(21, false) };
      const held = await hold({ ...sale, types: [{ price: price! }] }, [1]);
      const listed = await call('GET', `/api/v2/my-account/ticket-type/${held.eventId}`, {
        token: await customerToken((await newCustomer()).id),
      });
      expect(listed.status, listed.raw).toBe(200);
      expect(listed.body.data[0].bookingFee).toBe(expected);
      // The type is untaxed: the hold's fees and its tax are the fee's alone.
      expect(sum([held.amounts.fees, held.amounts.tax])).toBe(expected);
    }
  });

  it('adds up a multi-line hold with taxed shipping: the lines and shipping make the total, to the cent', async () => {
    const method = await createShippingMethod({
      name: 'Post',
      description: '',
      charge: 5,
      twoPlusCharge: 5,
      chargeType: 'per_order',
      hasETickets: true,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    });
    const held = await hold(
      {
        currency: 'EUR',
        shippingTax: VAT(21, false),
        types: [{ price: 10, tax: VAT(9) }, { price: 25.5 }, { price: 3.33, tax: VAT(19, false) }],
      },
      [3, 1, 3],
      method.id,
    );
    // 30.00 with 2.48 of VAT in it; 25.50 untaxed; 9.99 with 1.90 added; shipping 5.00 with 1.05 added.
    expect(held.lines.map((line: { tax: number; amount: number }) => [line.tax, line.amount])).toEqual([
      [2.48, 30],
      [0, 25.5],
      [1.9, 11.89],
    ]);
    expect(held.amounts).toMatchObject({ tickets: 65.49, shipping: 5, tax: 5.43, total: 73.44 });
    const lines = held.lines as { tax: number; amount: number }[];
    expect(sum([...lines.map((line) => line.amount), 5, 1.05])).toBe(held.amounts.total);
    expect(sum([...lines.map((line) => line.tax), 1.05])).toBe(held.amounts.tax);
  });

  it('refuses a client-sent tax, fee or discount with 400 naming it, holding nothing', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [{ name: 'A', price: 10, total: 5 }],
    });
    const token = await customerToken((await newCustomer()).id);
    const typeId = event.ticketTypes[0]!.id;
    for (const [extra, path] of [
      [{ tax: 0 }, 'body.tax'],
      [{ amounts: { tax: 0 } }, 'body.amounts'],
      [{ bookingFee: { perTicket: 0 } }, 'body.bookingFee'],
      [{ discount: 5 }, 'body.discount'],
      [{ lines: [{ typeId, quantity: 1, tax: 0 }] }, 'body.lines.0'],
      [{ lines: [{ typeId, quantity: 1, fee: 0 }] }, 'body.lines.0'],
      [{ lines: [{ typeId, quantity: 1, discount: 1 }] }, 'body.lines.0'],
    ] as const) {
      const answer = await call('POST', RESERVATIONS, {
        token,
        body: { eventId: event.id, lines: [{ typeId, quantity: 1 }], ...extra },
      });
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      const paths = answer.body.errors.map((error: { path: string }) => error.path);
      expect(
        paths.some((named: string) => named.startsWith(path)),
        paths.join(),
      ).toBe(true);
    }
    const shards = await readStock((await findTicketType(typeId))!);
    expect(shards.map((shard) => shard.held)).toEqual(shards.map(() => 0));
  });
});

describe('a taxed sale paid, mailed and refunded', () => {
  it('charges the total at Stripe; the order, its tickets and the mail show the same figures; a part cancel refunds its tickets with their fee', async () => {
    const { intent, orderId, token, email } = await checkedOut(keys, relay, {
      currency: 'USD',
      price: 100,
      quantity: 2,
      pricing: {
        tax: { name: 'Sales tax', rate: 8.875, inclusive: false },
        bookingFee: { perTicket: 1.5 },
      },
    });
    // 2 × 100 with 17.75 of sales tax added, and 3.00 of fee: 220.75.
    const atStripe = await stripeSdk(keys.secretKey).paymentIntents.retrieve(intent.id);
    expect(atStripe.amount).toBe(22075);
    await payAsBrowser(keys, intent);
    expect((await claimedThenIssued(orderId)).status).toBe('active');

    const mine = await call('GET', '/api/v2/my-account/orders?includeTickets=true', { token });
    const order = mine.body.data.find((entry: { id: string }) => entry.id === orderId);
    expect(order).toMatchObject({
      grandTotal: 220.75,
      amounts: { tickets: 200, discount: 0, fees: 3, shipping: 0, tax: 17.75, total: 220.75, currency: 'USD' },
    });
    // The line's 17.75 split by the largest remainder: 8.88 and 8.87.
    expect(
      order.tickets.map((ticket: { price: number; taxAmount: number }) => [ticket.price, ticket.taxAmount]),
    ).toEqual([
      [100, 8.88],
      [100, 8.87],
    ]);
    const mail = (await mailTo(email)).find((sent) => sent.subject.includes(`(order ${orderId})`));
    expect(mail!.body.text).toContain('2 × Runner: USD 217.75');
    expect(mail!.body.text).toContain('Booking fee: USD 3.00');
    expect(mail!.body.text).toContain('Total: USD 220.75');
    expect(mail!.body.text).toContain('Tax included in the total: USD 17.75');

    const pdf = await call('GET', `/api/v2/my-account/tickets/${order.tickets[0].id}/pdf`, { token });
    expect((await parsed(pdf.bytes)).text).toContain('USD 108.88, tax USD 8.88 included; booking fee USD 1.50');

    const staffOrder = await call('GET', `/api/v2/orders/${orderId}`, { token: staff });
    expect(staffOrder.body.data.amounts).toEqual(order.amounts);
    const first = staffOrder.body.data.ticketIds[0];
    const part = await call('POST', `/api/v2/orders/${orderId}/cancel`, {
      token: staff,
      body: { ticketIds: [Number(first)] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(part.status, part.raw).toBe(200);
    // The first ticket cost 100 + 8.88 of tax + 1.50 of fee.
    expect((await refundsAtStripe(keys, intent.id)).map((refund) => refund.amount)).toEqual([11038]);
    const whole = await call('POST', `/api/v2/orders/${orderId}/cancel`, {
      token: staff,
      body: {},
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(whole.status, whole.raw).toBe(200);
    expect(sum((await refundsAtStripe(keys, intent.id)).map((refund) => refund.amount / 100))).toBe(220.75);
  });

  it('prices a box-office sale as the portal does: the order, its payment and its ticket carry the tax', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      currency: 'EUR',
      ticketTypes: [{ name: 'Runner', price: 121, total: 10, tax: VAT(21) }],
    });
    const sold = await deskSale(staff, event, [1]);
    expect(sold).toMatchObject({
      grandTotal: 121,
      amounts: { tickets: 121, tax: 21, total: 121, currency: 'EUR' },
      payment: { paid: 121 },
      tickets: [{ price: 100, taxAmount: 21 }],
    });
  });
});

describe('the organiser sets taxes and fees', () => {
  it('takes a type’s tax and an event’s fee and taxes, answers them, removes them with null, and refuses bad ones with 400 naming the field', async () => {
    const created = await call('POST', '/api/v2/events', {
      token: staff,
      body: {
        title: 'Taxed 10K',
        start: '2027-06-01T09:00:00+02:00',
        timezone: 'Europe/Amsterdam',
        currency: 'EUR',
        bookingFee: { perTicket: 0.5 },
        feeTax: VAT(21),
        ticketTypes: [{ name: 'Runner', price: 25, total: 100, tax: VAT(9) }],
      },
    });
    expect(created.status, created.raw).toBe(201);
    const event = created.body.data;
    expect(event).toMatchObject({ bookingFee: { perTicket: 0.5 }, feeTax: VAT(21), shippingTax: null });
    expect(event.ticketTypes[0].tax).toEqual(VAT(9));
    const types = `/api/v2/events/${event.id}/ticket-types`;
    const added = await call('POST', types, {
      token: staff,
      body: { name: 'US runner', price: 30, total: 10, tax: { name: 'Sales tax', rate: 8.875, inclusive: false } },
    });
    expect(added.status, added.raw).toBe(201);
    const untaxed = await call('PATCH', `${types}/${added.body.data.id}`, { token: staff, body: { tax: null } });
    expect(untaxed.body.data.tax).toBeNull();
    const unfeed = await call('PATCH', `/api/v2/events/${event.id}`, { token: staff, body: { bookingFee: null } });
    expect(unfeed.body.data.bookingFee).toBeNull();

    const refusals: [string, string, unknown, string][] = [
      [
        'POST',
        types,
        { name: 'X', price: 1, total: 1, tax: { name: 'VAT', rate: 8.8755, inclusive: true } },
        'body.tax.rate',
      ],
      [
        'POST',
        types,
        { name: 'X', price: 1, total: 1, tax: { name: 'VAT', rate: 101, inclusive: true } },
        'body.tax.rate',
      ],
      ['POST', types, { name: 'X', price: 1, total: 1, tax: { name: 'VAT', rate: 21 } }, 'body.tax.inclusive'],
      [
        'POST',
        types,
        { name: 'X', price: 1, total: 1, tax: { name: ' ', rate: 21, inclusive: true } },
        'body.tax.name',
      ],
      ['PATCH', `/api/v2/events/${event.id}`, { bookingFee: {} }, 'body.bookingFee'],
      ['PATCH', `/api/v2/events/${event.id}`, { bookingFee: { percent: -1 } }, 'body.bookingFee.percent'],
      ['PATCH', `/api/v2/events/${event.id}`, { bookingFee: { perTicket: 0.001 } }, 'body.bookingFee.perTicket'],
      [
        'PATCH',
        `/api/v2/events/${event.id}`,
        { shippingTax: { name: 'VAT', rate: 'high', inclusive: true } },
        'body.shippingTax.rate',
      ],
    ];
    for (const [method, path, body, field] of refusals) {
      const answer = await call(method, path, { token: staff, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(field);
    }
    // A fee in cents is no fee of a yen event: on the event's currency change too.
    const yen = await call('PATCH', `/api/v2/events/${event.id}`, {
      token: staff,
      body: { bookingFee: { perTicket: 0.5 }, currency: 'JPY' },
    });
    expect(yen.status, yen.raw).toBe(400);
  });
});
