import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { putPaymentProcessor } from '#shared/selling/data/payment-processors';
import { PaymentProcessorResource } from '#shared/portal/contract/my-account';
import { UpgradeOptionResource } from '#shared/portal/contract/my-account';
import type { CreatedEvent } from '#shared/events/domain/event';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { checkIn } from '#shared/gate/use-cases/check-in';
import { changeTicketStates, deleteTicket } from '#shared/tickets/use-cases/edit-ticket';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { blankingId, call } from '../support/api.ts';
import { SYSTEM } from '../support/tickets.ts';
import { customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * The payment processor (the one configuration: only this file writes it on the shared table;
 * its test removes it first, for the 404, and the upgrades set it themselves: the run shuffles
 * the order of tests), upgrade options of a customer's ticket, and a customer asking for another
 * customer's ticket or hidden event: 404, never 403, never the data.
 */
const BASE = '/api/v2/my-account';
const EURO_PROCESSOR = {
  provider: 'stripe',
  publishableKey: 'pk_test_123',
  currency: 'EUR',
  mode: 'test',
  merchantName: 'Race Co',
} as const;

let event: CreatedEvent;
let customer: number;
let token: string;

beforeAll(async () => {
  event = await seedEvent({
    ticketTypes: [
      { name: 'Standard', price: 40, total: 100 },
      { name: 'Premium', price: 95.5, total: 100, description: 'Start pen A and a medal engraving' },
      { name: 'Cheaper', price: 30, total: 100 },
      { name: 'VIP', price: 150, total: 1 },
    ],
  });
  customer = unusedCustomerId();
  token = await customerToken(customer);
  await seedTickets(event, event.ticketTypes[3]!.id, 1); // VIP sold out
});

const upgrades = (ticketId: number, as = token) => call('GET', `${BASE}/upgrades/${ticketId}`, { token: as });
const standardTicket = async () => (await placeOrder(event, customer, [event.ticketTypes[0]!.id])).ticketIds[0]!;

describe('GET /my-account/payment-processor', () => {
  it('answers 404 while none is configured, then the public settings', async () => {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.paymentProcessor }));
    const none = await call('GET', `${BASE}/payment-processor`, { token });
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe('Payment processor not found.');

    await putPaymentProcessor(EURO_PROCESSOR);
    const set = await call('GET', `${BASE}/payment-processor`, { token });
    expect(set.status).toBe(200);
    // The stage's Stripe key (here the stand-in's) over the record's: the stage file configures Stripe.
    expect(set.body).toEqual({
      count: 1,
      data: { ...EURO_PROCESSOR, processor: 'stripe', publishableKey: process.env.STRIPE_PUBLISHABLE_KEY },
    });
    expect(set.body.data.publishableKey).toMatch(/^pk_test_/);
    expect(PaymentProcessorResource.safeParse(set.body.data).success).toBe(true);
  });
});

describe('GET /my-account/payment-processor?eventId=', () => {
  it("answers the currency the event's checkout charges in, the rest as the record", async () => {
    await putPaymentProcessor(EURO_PROCESSOR);
    const yen = await seedEvent({
      published: true,
      currency: 'JPY',
      ticketTypes: [{ name: 'Runner', price: 1500, total: 10 }],
    });
    const [record, forYen] = [
      await call('GET', `${BASE}/payment-processor`, { token }),
      await call('GET', `${BASE}/payment-processor?eventId=${yen.id}`, { token }),
    ];
    expect(forYen.status, forYen.raw).toBe(200);
    expect(record.body.data.currency).toBe('EUR');
    expect(forYen.body).toEqual({ count: 1, data: { ...record.body.data, currency: 'JPY' } });
    // What the checkout holds and charges in for that event.
    const held = await call('POST', `${BASE}/reservations`, {
      token: await customerToken(unusedCustomerId()),
      body: { eventId: yen.id, lines: [{ typeId: yen.ticketTypes[0]!.id, quantity: 1 }] },
    });
    expect(held.body.data.amounts.currency).toBe(forYen.body.data.currency);
  });

  it('answers an unpublished event as a missing one, except to a customer holding an order of it', async () => {
    await putPaymentProcessor(EURO_PROCESSOR);
    const draft = await seedEvent({ published: false, currency: 'GBP' });
    const buyer = unusedCustomerId();
    await placeOrder(draft, buyer, [draft.ticketTypes[0]!.id]);
    const missing = 999_999_999;
    const answerFor = async (eventId: number) => {
      const refused = await call('GET', `${BASE}/payment-processor?eventId=${eventId}`, { token });
      expect(refused.status, refused.raw).toBe(404);
      return blankingId(refused, eventId);
    };
    expect(await answerFor(draft.id)).toBe(await answerFor(missing));
    const own = await call('GET', `${BASE}/payment-processor?eventId=${draft.id}`, {
      token: await customerToken(buyer),
    });
    expect(own.body.data.currency).toBe('GBP');
    for (const bad of ['abc', '07', '0', ''])
      expect((await call('GET', `${BASE}/payment-processor?eventId=${bad}`, { token })).status, bad).toBe(400);
  });
});

describe('GET /my-account/upgrades/{ticketId}', () => {
  it("prices the options in the ticket's event's currency, not the processor record's", async () => {
    await putPaymentProcessor(EURO_PROCESSOR);
    const pounds = await seedEvent({ currency: 'GBP' });
    const [cheapest] = [...pounds.ticketTypes].sort((a, b) => a.price - b.price);
    const { ticketIds } = await placeOrder(pounds, customer, [cheapest!.id]);
    const response = await upgrades(ticketIds[0]!);
    expect(response.body.data.length).toBeGreaterThan(0);
    for (const option of response.body.data) expect(option.currency).toBe('GBP');
  });

  it("offers the event's dearer types, cheapest first, with the difference, the currency and whether there is room", async () => {
    const ticketId = await standardTicket();
    const response = await upgrades(ticketId);
    expect(response.status, response.raw).toBe(200);
    const [standard, premium, , vip] = event.ticketTypes;
    expect(response.body).toEqual({
      count: 2,
      data: [
        {
          ticketId,
          fromTypeId: standard!.id,
          targetTypeId: premium!.id,
          name: 'Premium',
          description: 'Start pen A and a medal engraving',
          priceDifference: 55.5,
          currency: 'EUR',
          available: true,
        },
        {
          ticketId,
          fromTypeId: standard!.id,
          targetTypeId: vip!.id,
          name: 'VIP',
          description: '',
          priceDifference: 110,
          currency: 'EUR',
          available: false,
        },
      ],
    });
    for (const option of response.body.data) expect(UpgradeOptionResource.safeParse(option).success).toBe(true);
  });

  it('answers the difference of what each type costs the buyer: the price with its added tax and its booking fee', async () => {
    const salesTax = { name: 'Sales tax', rate: 8.875, inclusive: false };
    const taxed = await seedEvent({
      published: true,
      questions: [],
      currency: 'USD',
      bookingFee: { perTicket: 1.5, percent: 4 },
      ticketTypes: [
        { name: 'Standard', price: 100, total: 10, tax: salesTax },
        { name: 'Premium', price: 150, total: 10, tax: salesTax },
        // Dearer by its stored price than Standard, cheaper to the buyer: Standard's tax is added, this one's none.
        { name: 'Untaxed', price: 105, total: 10 },
      ],
    });
    const [standard, premium, untaxed] = taxed.ticketTypes;
    // What one ticket of a type costs the buyer, as the buyer's hold answers it.
    const costOf = async (typeId: number) => {
      const held = await call('POST', `${BASE}/reservations`, {
        token: await customerToken(unusedCustomerId()),
        body: { eventId: taxed.id, lines: [{ typeId, quantity: 1 }] },
      });
      expect(held.status, held.raw).toBe(201);
      return held.body.data.amounts.total as number;
    };
    const [standardCost, premiumCost, untaxedCost] = [
      await costOf(standard!.id),
      await costOf(premium!.id),
      await costOf(untaxed!.id),
    ];
    expect(untaxedCost).toBeLessThan(standardCost);
    const ticketId = (await placeOrder(taxed, customer, [standard!.id])).ticketIds[0]!;
    const response = await upgrades(ticketId);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.map((option: { targetTypeId: number }) => option.targetTypeId)).toEqual([premium!.id]);
    const difference = Math.round((premiumCost - standardCost) * 100) / 100;
    expect(response.body.data[0].priceDifference).toBe(difference);
    // More than the stored prices' 50: the added tax and the percentage fee on the difference.
    expect(difference).toBeGreaterThan(50);
  });

  it('offers nothing for a ticket that is checked in, cancelled or already upgraded', async () => {
    const [checkedIn, cancelled, upgraded] = [await standardTicket(), await standardTicket(), await standardTicket()];
    await checkIn(checkedIn, { adminId: 1 });
    await changeTicketStates(cancelled, { processState: PROCESS_STATE.cancelled }, SYSTEM);
    await changeTicketStates(upgraded, { upgradeState: 'upgraded' }, SYSTEM);
    for (const id of [checkedIn, cancelled, upgraded])
      expect((await upgrades(id)).body).toEqual({ count: 0, data: [] });
  });

  it("answers 404 for another customer's ticket, a ticket of no customer, a deleted or unknown one", async () => {
    const ticketId = await standardTicket();
    const stranger = await customerToken(unusedCustomerId());
    const theirs = await upgrades(ticketId, stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe(`Ticket ${ticketId} not found.`);
    expect(JSON.stringify(theirs.body)).not.toContain('Premium');

    const [staffSold] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    expect((await upgrades(staffSold!.id)).status).toBe(404);
    const deleted = await standardTicket();
    await deleteTicket(deleted, SYSTEM);
    expect((await upgrades(deleted)).status).toBe(404);
    expect((await upgrades(999_999_999)).status).toBe(404);
  });
});

describe("another customer's data", () => {
  it("keeps a hidden event bought by one customer out of another's ticket types, wave times, events and orders", async () => {
    const hidden = await seedEvent({
      waveTimes: [{ name: 'Only wave', startTime: '2031-01-01T09:00:00Z', capacity: 10 }],
    });
    const owner = unusedCustomerId();
    await placeOrder(hidden, owner, [hidden.ticketTypes[0]!.id]);
    const ownerToken = await customerToken(owner);
    expect((await call('GET', `${BASE}/ticket-type/${hidden.id}`, { token: ownerToken })).status).toBe(200);

    for (const path of [`ticket-type/${hidden.id}`, `wave-time/${hidden.id}`]) {
      const response = await call('GET', `${BASE}/${path}`, { token });
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain(hidden.ticketTypes[0]!.name);
    }
    const events = await call('GET', `${BASE}/event?return=orders`, { token });
    expect(events.body.data.map((entry: { id: string }) => entry.id)).not.toContain(String(hidden.id));
    expect((await call('GET', `${BASE}/orders?event=${hidden.id}`, { token })).body).toMatchObject({
      totalCount: 0,
      data: [],
    });
  });
});
