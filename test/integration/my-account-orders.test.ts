import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { listCustomerTickets } from '#shared/tickets/data/ticket-records';
import { listOrderTickets } from '../support/stored-records.ts';
import { OrderEntryResource } from '#shared/portal/contract/my-account';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, getPage, idsOf } from '../support/api.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { commandsSent } from '../support/command-tally.ts';
import { atTime } from '../support/clock.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * A customer's orders: scoped to the caller, every filter alone and combined, the
 * expansions, paging and totalCount from the kept counts, the cost of a page; and a sold
 * order's tickets (the orders are sold as the box office sells them: test/support/factories/orders.ts).
 */
const BASE = '/api/v2/my-account';

afterEach(() => resetClock());

let eventA: CreatedEvent;
let eventB: CreatedEvent;
let customer: number;
let other: number;
/** The customer's orders, oldest first: o1 (A: GA, GA), o2 (A: VIP), o3 (B), o4 (A: GA, VIP). */
let o: Order[];
let othersOrder: Order;

beforeAll(async () => {
  eventA = await seedEvent({
    ticketTypes: [
      { name: 'GA', price: 35, total: 100 },
      { name: 'VIP', price: 90, total: 100 },
    ],
    waveTimes: [{ name: 'Wave 1', startTime: '2031-05-01T08:00:00Z', capacity: 50 }],
  });
  eventB = await seedEvent({ published: true, ticketTypes: [{ name: 'Day', price: 20, total: 100 }] });
  [customer, other] = [unusedCustomerId(), unusedCustomerId()];
  const [ga, vip] = eventA.ticketTypes.map((type) => type.id) as [number, number];
  o = [
    await atTime('2030-03-10T12:00:00Z', () => placeOrder(eventA, customer, [ga, ga])),
    await atTime('2030-03-12T08:00:00Z', () => placeOrder(eventA, customer, [vip])),
    await atTime('2030-03-12T20:00:00Z', () => placeOrder(eventB, customer, [eventB.ticketTypes[0]!.id])),
    await atTime('2030-03-15T09:00:00Z', () => placeOrder(eventA, customer, [ga, vip])),
  ];
  othersOrder = await atTime('2030-03-11T10:00:00Z', () => placeOrder(eventA, other, [ga]));
});

const orders = async (customerId: number, query = '') =>
  getPage(`${BASE}/orders${query ? `?${query}` : ''}`, await customerToken(customerId));
const idsOfOrders = (...list: Order[]) => list.map((order) => order.id);

describe('GET /my-account/orders', () => {
  it("lists only the caller's orders, newest first; another customer gets none of them", async () => {
    const mine = await orders(customer);
    expect(idsOf(mine)).toEqual(idsOfOrders(o[3]!, o[2]!, o[1]!, o[0]!));
    expect(mine.totalCount).toBe(4);
    const theirs = await orders(other);
    expect(idsOf(theirs)).toEqual([othersOrder.id]);
    expect(await orders(unusedCustomerId())).toEqual({
      totalCount: 0,
      count: 0,
      limit: 25,
      offset: 0,
      data: [],
      next: null,
    });
    // Naming the customer's event or type does not reach into their orders either.
    expect(idsOf(await orders(other, `event=${eventB.id}`))).toEqual([]);
  });

  it("answers each order's fields, with the wave on the order (no sale sets a team or an affiliate)", async () => {
    const [entry] = (await orders(customer, `event=${eventA.id}&_limit=100`)).data.slice(-1);
    expect(OrderEntryResource.safeParse(entry).error?.issues).toBeUndefined();
    expect(entry).toEqual({
      id: String(o[0]!.id),
      eventId: eventA.id,
      created: o[0]!.created,
      purchasedDate: o[0]!.purchasedDate,
      status: 'active',
      emailAddress: `customer-${customer}@example.test`,
      purchaser: expect.any(String),
      affiliate: null,
      grandTotal: 70,
      // Priced as every sale is (the types' prices, no fee or tax on this event).
      amounts: { tickets: 70, discount: 0, fees: 0, shipping: 0, tax: 0, total: 70, currency: 'EUR' },
      waveTimeId: eventA.waveTimes[0]!.id,
      teamId: null,
    });
    expect(o[0]!.purchasedDate.startsWith('2030-03-10T12:00')).toBe(true);
  });

  it('filters by events, counting them from the kept counts', async () => {
    const a = await orders(customer, `event=${eventA.id}`);
    expect(idsOf(a)).toEqual(idsOfOrders(o[3]!, o[1]!, o[0]!));
    expect(a.totalCount).toBe(3);
    const both = await orders(customer, `event=${eventA.id},${eventB.id}`);
    expect(idsOf(both)).toEqual(idsOfOrders(o[3]!, o[2]!, o[1]!, o[0]!));
    expect(both.totalCount).toBe(4);
  });

  it('filters by ticket types: an order holding any of them, each counted once', async () => {
    const [ga, vip] = eventA.ticketTypes.map((type) => type.id);
    const vipOnly = await orders(customer, `ticketType=${vip}`);
    expect(idsOf(vipOnly)).toEqual(idsOfOrders(o[3]!, o[1]!));
    expect(vipOnly.totalCount).toBe(2);
    const either = await orders(customer, `ticketType=${ga},${vip}`);
    expect(idsOf(either)).toEqual(idsOfOrders(o[3]!, o[1]!, o[0]!));
    expect(either.totalCount).toBe(3);
  });

  it('filters by purchase date, a whole UTC day or an instant, both bounds inclusive', async () => {
    expect(idsOf(await orders(customer, 'fromPurchaseDate=2030-03-12'))).toEqual(idsOfOrders(o[3]!, o[2]!, o[1]!));
    expect(idsOf(await orders(customer, 'toPurchaseDate=2030-03-12'))).toEqual(idsOfOrders(o[2]!, o[1]!, o[0]!));
    const day = await orders(customer, 'fromPurchaseDate=2030-03-12&toPurchaseDate=2030-03-12');
    expect(idsOf(day)).toEqual(idsOfOrders(o[2]!, o[1]!));
    expect(day.totalCount).toBe(2);
    const instant = encodeURIComponent(o[1]!.purchasedDate);
    expect(idsOf(await orders(customer, `fromPurchaseDate=${instant}&toPurchaseDate=${instant}`))).toEqual(
      idsOfOrders(o[1]!),
    );
    expect(idsOf(await orders(customer, `toPurchaseDate=${encodeURIComponent('2030-03-12T10:30:00+02:00')}`))).toEqual(
      idsOfOrders(o[1]!, o[0]!),
    );
  });

  it('combines event, ticket type and date filters', async () => {
    const vip = eventA.ticketTypes[1]!.id;
    const page = await orders(customer, `event=${eventA.id}&ticketType=${vip}&fromPurchaseDate=2030-03-13`);
    expect(idsOf(page)).toEqual(idsOfOrders(o[3]!));
    expect(page.totalCount).toBe(1);
    expect(idsOf(await orders(customer, `event=${eventB.id}&ticketType=${vip}`))).toEqual([]);
  });

  it('adds tickets, transactions and answers only when asked', async () => {
    const plain = (await orders(customer, `event=${eventA.id}`)).data[0]!;
    for (const key of ['tickets', 'transactions', 'answers']) expect(plain).not.toHaveProperty(key);

    const withTickets = (await orders(customer, `event=${eventA.id}&includeTickets=true`)).data[0]!;
    // Each with its barcode, what the gate scans (so a portal can draw the QR code without the PDF).
    const barcodes = new Map((await listOrderTickets(o[3]!.id)).map((ticket) => [ticket.id, ticket.barcode]));
    expect(withTickets.tickets).toEqual(
      o[3]!.ticketIds.map((id, attendee) => ({
        id: String(id),
        status: 'active',
        name: expect.stringMatching(/\S+ \S+/),
        price: [35, 90][attendee],
        // Untaxed types: no tax in the price (test/integration/pricing.test.ts prices taxed ones).
        taxAmount: 0,
        attendee,
        barcode: barcodes.get(id),
      })),
    );
    expect(barcodes.size).toBe(2);
    // An order written whole (no checkout) names no shipping method.
    expect(withTickets).not.toHaveProperty('shipping');
    expect(withTickets).not.toHaveProperty('transactions');

    const everything = await orders(
      customer,
      `event=${eventA.id}&includeTickets=true&includeTrans=true&includeAnswers=true`,
    );
    for (const entry of everything.data) expect(OrderEntryResource.safeParse(entry).error?.issues).toBeUndefined();
    const full = everything.data[0]!;
    expect(full.transactions).toEqual([
      { amount: 125, processor: 'card_present', reference: expect.any(String), time: expect.any(String) },
    ]);
    // No sale asks order-level questions (the box office's and the checkout's answers are each attendee's, on the ticket).
    expect(full.answers).toEqual([]);
    expect(full.tickets[0].attendeeQuestions).toHaveLength(eventA.questions.length);

    const answersOnly = (await orders(customer, `event=${eventA.id}&includeAnswers=true`)).data[0]!;
    expect(answersOnly.answers).toEqual([]);
    expect(answersOnly).not.toHaveProperty('tickets');
  });

  it('pages newest first without overlap; totalCount comes from the counts, also past the end', async () => {
    const first = await orders(customer, '_limit=3');
    const second = await orders(customer, '_limit=3&_offset=3');
    expect(first).toMatchObject({ totalCount: 4, count: 3, limit: 3, offset: 0 });
    expect(second).toMatchObject({ totalCount: 4, count: 1, offset: 3 });
    expect([...idsOf(first), ...idsOf(second)]).toEqual(idsOfOrders(o[3]!, o[2]!, o[1]!, o[0]!));
    expect(await orders(customer, '_offset=990&_limit=10')).toMatchObject({ totalCount: 4, count: 0, data: [] });
  });

  // The list's index items are the orders' list entries: the page's orders are one batch read, their tickets (with the
  // count) a second, since an order's tickets are named by the order.
  it("costs one Query and two batch reads for a page with its tickets and count: the page's orders, then their tickets", async () => {
    const token = await customerToken(customer);
    await call('GET', `${BASE}/orders?includeTickets=true`, { token }); // warm: module load, token cache
    const page = await commandsSent(async () =>
      expect((await call('GET', `${BASE}/orders?includeTickets=true&includeAnswers=true`, { token })).status).toBe(200),
    );
    expect(page.sort()).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);
    const filtered = await commandsSent(async () =>
      expect((await call('GET', `${BASE}/orders?event=${eventA.id},${eventB.id}`, { token })).status).toBe(200),
    );
    expect(filtered.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand', 'QueryCommand']);
  });

  it('refuses bad filters with a 400 naming the parameter', async () => {
    const token = await customerToken(customer);
    const problem = async (query: string) => {
      const response = await call('GET', `${BASE}/orders?${query}`, { token });
      expect(response.status, response.raw).toBe(400);
      // The parameter, or an item of a list parameter (`query.ticketType.0`).
      return response.body.errors.map((error: { path: string }) => error.path.replace(/\.\d+$/, ''));
    };
    expect(await problem('fromPurchaseDate=last-week')).toContain('query.fromPurchaseDate');
    expect(await problem('toPurchaseDate=2030-13-45')).toContain('query.toPurchaseDate');
    expect(await problem('fromPurchaseDate=2030-03-12&toPurchaseDate=2030-03-11')).toContain('query.fromPurchaseDate');
    expect(await problem('includeTickets=yes')).toContain('query.includeTickets');
    expect(await problem('includeTrans=1')).toContain('query.includeTrans');
    expect(await problem('event=1,2,3,4,5,6,7,8,9,10,11')).toContain('query.event');
    expect(await problem('ticketType=x')).toContain('query.ticketType');
  });
});

describe('a sold order', () => {
  it('has its tickets with the order, the customer and the wave, findable by order and by customer', async () => {
    const buyer = unusedCustomerId();
    const order = await placeOrder(eventA, buyer, [eventA.ticketTypes[0]!.id, eventA.ticketTypes[1]!.id]);
    expect(order).toMatchObject({ status: 'active', customerId: buyer, eventId: eventA.id, grandTotal: 125 });
    const [first] = order.ticketIds;
    const ticket = await call('GET', `/api/v2/tickets/${first}`, { token: await adminToken(['tickets:read']) });
    expect(ticket.body.data).toMatchObject({
      orderId: order.id,
      customerId: buyer,
      waveTimeId: eventA.waveTimes[0]!.id,
    });
    expect((await listOrderTickets(order.id)).map((t) => t.id)).toEqual(order.ticketIds);
    const page = await listCustomerTickets(buyer, { limit: 1, offset: 1 });
    expect(page.items.map((t) => t.id)).toEqual([order.ticketIds[1]]);
    expect(page).toMatchObject({ totalCount: 2, more: false });
  });
});
