import { beforeAll, describe, expect, it } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import { readOrderDocuments } from '#shared/selling/data/invoices';
import { call } from '../support/api.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { deskSale } from '../support/desk-sales.ts';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { parsed } from '../support/pdf-text.ts';
import { type StandInKeys, standInKeys, type WebhookRelay, webhookRelay } from '../support/stripe.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { newCustomer } from '../support/customers.ts';

/**
 * A business buyer's billing details (checkout-body.ts `BillingBody`, shared/README.md "Invoices"): given at the
 * portal's checkout or the box office, trimmed, kept on the order, answered with it to staff and to the buyer, printed
 * on the invoice (and its credit notes, which copy the invoice's buyer) and exported; bad ones are a 400 naming the
 * field that changes nothing.
 */
const BILLING = {
  company: '  Acme Events BV ',
  taxId: 'NL123456789B01',
  address: 'Keizersgracht 1\n1015 CJ Amsterdam',
};
const TRIMMED = { company: 'Acme Events BV', taxId: 'NL123456789B01', address: 'Keizersgracht 1\n1015 CJ Amsterdam' };
const RESERVATIONS = '/api/v2/my-account/reservations';

let stripe: StandInKeys;
let relay: WebhookRelay;
let staff: string;

beforeAll(async () => {
  stripe = await standInKeys();
  relay = await webhookRelay();
  staff = await adminToken(['orders:read', 'orders:sell'], 999_661);
  return () => relay.close();
});

describe("the portal's checkout with billing details", () => {
  it('keeps them trimmed on the order, answers them, prints them on the invoice and exports them', async () => {
    const bought = await checkedOut(stripe, relay, { quantity: 1, price: 121, billing: BILLING });
    expect((await getOrder(Number(bought.orderId)))!.billing).toEqual(TRIMMED);
    await payAsBrowser(stripe, bought.intent);
    expect((await claimedThenIssued(bought.orderId)).status).toBe('active');

    const shown = await call('GET', `/api/v2/orders/${bought.orderId}`, { token: staff });
    expect(shown.status, shown.raw).toBe(200);
    expect(shown.body.data.billing).toEqual(TRIMMED);
    const mine = await call('GET', '/api/v2/my-account/orders', { token: bought.token });
    expect(mine.body.data.find((order: { id: string }) => order.id === bought.orderId).billing).toEqual(TRIMMED);

    const [invoice] = await readOrderDocuments(Number(bought.orderId));
    expect(invoice!.buyer).toMatchObject(TRIMMED);
    const pdf = await call('GET', `/api/v2/my-account/orders/${bought.orderId}/invoice`, { token: bought.token });
    const { text } = await parsed(pdf.bytes);
    expect(text).toEqual(
      expect.arrayContaining(['Acme Events BV', 'Keizersgracht 1', '1015 CJ Amsterdam', 'Tax id NL123456789B01']),
    );

    const exported = await call('GET', `/api/v2/orders/export?event=${bought.eventId}`, { token: staff });
    expect(exported.status, exported.raw).toBe(200);
    const [header, row] = exported.raw.trim().split('\r\n');
    const at = (name: string) => header!.split(',').indexOf(name);
    expect(at('billingCompany')).toBeGreaterThan(0);
    expect(row).toContain('Acme Events BV,NL123456789B01,"Keizersgracht 1\n1015 CJ Amsterdam"');
  });

  it('refuses bad billing details with a 400 naming the field, and checks nothing out', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [{ name: 'Runner', price: 10, total: 5 }],
    });
    const customer = await newCustomer();
    const token = await customerToken(customer.id, { email: customer.email });
    const held = await call('POST', RESERVATIONS, {
      token,
      body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }] },
    });
    expect(held.status, held.raw).toBe(201);
    const attendees = [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }];
    for (const [billing, path] of [
      [{ company: '   ' }, 'body.billing.company'],
      [{ taxId: 'X'.repeat(21) }, 'body.billing.taxId'],
      [{ taxId: 'NL 123;DROP' }, 'body.billing.taxId'],
      [{ address: 'a'.repeat(201) }, 'body.billing.address'],
      [{ address: '1\n2\n3\n4\n5' }, 'body.billing.address'],
      [{}, 'body.billing'],
      [{ company: 'Acme', vatRate: 0 }, 'body.billing'],
    ] as const) {
      const refused = await call('POST', `${RESERVATIONS}/${held.body.data.id}/checkout`, {
        token,
        body: { attendees, billing },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(refused.status, JSON.stringify(billing)).toBe(400);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(JSON.stringify(refused.body), JSON.stringify(billing)).toContain(path);
    }
    const reservation = await call('GET', `${RESERVATIONS}/${held.body.data.id}`, { token });
    expect(reservation.body.data.status).toBe('held');
  });
});

describe('the box office with billing details', () => {
  it('keeps them on the sale and prints them on its invoice', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      currency: 'EUR',
      ticketTypes: [{ name: 'Runner', price: 50, total: 10 }],
    });
    const sold = await deskSale(staff, event, [1], { billing: BILLING });
    expect(sold.billing).toEqual(TRIMMED);
    const [invoice] = await readOrderDocuments(Number(sold.id));
    expect(invoice!.buyer).toMatchObject({ name: 'Ada Lovelace', ...TRIMMED });
  });
});
