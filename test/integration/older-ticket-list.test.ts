import { randomInt } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { ListedTicketResource } from '#shared/tickets/contract/ticket';
import type { Order } from '#shared/selling/domain/order';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { CursorPageAnswer } from '#shared/http/answers';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { seedWaivers } from '../../bin/seed/waivers.ts';
import { call, getPage, idsOf } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { adminToken } from '../support/tokens.ts';
import { atTime } from '../support/clock.ts';

/**
 * GET /ticket: every filter alone and combined, search, dates, paging, the expansions and
 * barcode uniqueness. The incremental sync is in older-ticket-list-sync.test.ts.
 */
const LIST = '/api/v2/ticket';
let token: string;
let event: CreatedEvent;
let other: CreatedEvent;
let customer: { id: number; email: string };
let order: Order;
/** event's tickets: the order's two (GA, VIP), three staff GA, two staff VIP; other's two. */
let orderTickets: Ticket[];
let staffGa: Ticket[];
let staffVip: Ticket[];
let otherTickets: Ticket[];
const ga = () => event.ticketTypes[0]!.id;
const vip = () => event.ticketTypes[1]!.id;
/** The order is placed at this (past) time: the purchase range finds it. */
const PURCHASED = '2021-03-01T10:00:00.000Z';

afterEach(() => resetClock());

beforeAll(async () => {
  token = await adminToken(['tickets:read', 'tickets:write'], 717_001);
  event = await seedEvent({ waveTimes: [{ name: 'Wave A', startTime: '2027-06-01T08:00:00Z', capacity: 120 }] });
  other = await seedEvent();
  await seedWaivers([event]);
  customer = await newCustomer();
  order = await atTime(PURCHASED, () => placeOrder(event, customer.id, [ga(), vip()]));
  orderTickets = (await Promise.all(order.ticketIds.map((id) => call('GET', `${LIST}/${id}`, { token })))).map(
    (r) => r.body.data,
  );
  staffGa = await seedTickets(event, ga(), 3);
  staffVip = await seedTickets(event, vip(), 2);
  otherTickets = await seedTickets(other, other.ticketTypes[0]!.id, 2);
}, 60_000);

const list = (query: string) => getPage(`${LIST}?${query}`, token);
const sorted = (tickets: { id: number }[]) => tickets.map((ticket) => ticket.id).sort((a, b) => a - b);

describe('GET /ticket: each filter alone', () => {
  it("lists an event's live tickets by id, totalCount from the kept counts", async () => {
    const page = await list(`eventId=${event.id}`);
    expect(idsOf(page)).toEqual(sorted([...orderTickets, ...staffGa, ...staffVip]));
    expect(page).toMatchObject({ totalCount: 7, count: 7, limit: 25, offset: 0 });
  });

  it("lists a type's tickets, an order's tickets and a customer's tickets", async () => {
    expect(idsOf(await list(`typeId=${vip()}`))).toEqual(sorted([orderTickets[1]!, ...staffVip]));
    expect(idsOf(await list(`orderId=${order.id}`))).toEqual(sorted(orderTickets));
    expect(idsOf(await list(`customerId=${customer.id}`))).toEqual(sorted(orderTickets));
  });

  it('finds a ticket by its barcode, and answers an empty page for an unknown barcode', async () => {
    expect(idsOf(await list(`barcode=${staffGa[1]!.barcode}`))).toEqual([staffGa[1]!.id]);
    expect(await list('barcode=NO-SUCH-CODE')).toEqual({
      totalCount: 0,
      count: 0,
      limit: 25,
      offset: 0,
      data: [],
      next: null,
    });
  });

  it("answers each ticket as GET /ticket/{id} does, with its purchasedDate (the order's purchase time)", async () => {
    const page = await list(`orderId=${order.id}`);
    expect(page.data[0]).toEqual(orderTickets[0]);
    expect(page.data.map((ticket) => ticket.purchasedDate)).toEqual([order.purchasedDate, order.purchasedDate]);
    expect(order.purchasedDate.slice(0, 16)).toBe(PURCHASED.slice(0, 16));
    expect(() => CursorPageAnswer(ListedTicketResource).parse(page)).not.toThrow();
  });
});

describe('GET /ticket?orderId=…: an order is read whole (it holds at most 50)', () => {
  it('answers the exact total on every page, alone and with another filter, any _offset, each ticket once by next', async () => {
    // An event and a buyer of its own: the other tests' lists of `event` and `customer` stay as they were made.
    const own = await seedEvent();
    const [gaOwn, vipOwn] = own.ticketTypes.map((type) => type.id) as [number, number];
    const placed = await placeOrder(own, (await newCustomer()).id, [gaOwn, gaOwn, vipOwn, gaOwn, vipOwn]);
    const ids = [...placed.ticketIds].sort((a, b) => a - b);
    const query = `orderId=${placed.id}&_limit=2`;
    const first = await list(query);
    expect([idsOf(first), first.totalCount, first.totalCountIsEstimate]).toEqual([ids.slice(0, 2), 5, undefined]);
    const second = await list(`${query}&_cursor=${first.next}`);
    expect([idsOf(second), second.totalCount, second.totalCountIsEstimate]).toEqual([ids.slice(2, 4), 5, undefined]);
    const last = await list(`${query}&_cursor=${second.next}`);
    expect([idsOf(last), last.next]).toEqual([ids.slice(4), null]);
    expect(idsOf(await list(`${query}&_offset=3`))).toEqual(ids.slice(3));
    // Past the order's end (and past what a served read may skip): an empty page with the total, not a 400.
    const past = await list(`${query}&_offset=2000`);
    expect([past.data, past.totalCount, past.next]).toEqual([[], 5, null]);
    const vips = await list(`orderId=${placed.id}&typeId=${vipOwn}&_limit=1`);
    expect([vips.count, vips.totalCount, vips.totalCountIsEstimate]).toEqual([1, 2, undefined]);
  });
});

describe('GET /ticket: filters combined (AND)', () => {
  it('applies the other filters on top of the serving one', async () => {
    expect(idsOf(await list(`eventId=${event.id}&typeId=${ga()}`))).toEqual(sorted([orderTickets[0]!, ...staffGa]));
    expect(idsOf(await list(`orderId=${order.id}&typeId=${vip()}`))).toEqual([orderTickets[1]!.id]);
    expect(idsOf(await list(`customerId=${customer.id}&eventId=${other.id}`))).toEqual([]);
    expect(idsOf(await list(`barcode=${staffGa[0]!.barcode}&eventId=${other.id}`))).toEqual([]);
    expect(idsOf(await list(`typeId=${other.ticketTypes[0]!.id}&eventId=${other.id}`))).toEqual(sorted(otherTickets));
  });

  it('filters an event by purchase date (ISO date, date-time or unix seconds; the end date includes its day)', async () => {
    const day = await list(`eventId=${event.id}&purchasedFrom=2021-03-01&purchasedTo=2021-03-01`);
    expect(idsOf(day)).toEqual(sorted(orderTickets));
    expect(day.totalCount).toBe(2);
    const seconds = Math.floor(Date.parse(order.purchasedDate) / 1000);
    expect(idsOf(await list(`eventId=${event.id}&purchasedFrom=${seconds}&purchasedTo=${seconds + 1}`))).toEqual(
      sorted(orderTickets),
    );
    expect(idsOf(await list(`eventId=${event.id}&purchasedTo=2021-02-28T23:59:59Z`))).toEqual([]);
    // Served by the purchase index: in (purchasedDate, id) order, so the cursor resumes in it.
    const staffSales = await list(`eventId=${event.id}&purchasedFrom=2022-01-01`);
    expect([...idsOf(staffSales)].sort((a, b) => a - b)).toEqual(sorted([...staffGa, ...staffVip]));
    const keys = staffSales.data.map((ticket) => `${ticket.purchasedDate}#${String(ticket.id).padStart(10, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(idsOf(await list(`typeId=${vip()}&purchasedTo=2021-03-02`))).toEqual([orderTickets[1]!.id]);
  });

  it('searches names, email, barcode and bib by word prefix within a bounding filter, case-insensitively', async () => {
    const target = staffVip[0]!;
    // The search entries are the table stream's consumer's, after each change (none reads this table's stream).
    await listsCaughtUp([...orderTickets, ...staffGa, ...staffVip, ...otherTickets]);
    const byName = await list(
      `eventId=${event.id}&search=${encodeURIComponent(target.partyMemberLastName.toUpperCase())}`,
    );
    expect(idsOf(byName)).toContain(target.id);
    expect(
      byName.data.every((t) =>
        `${t.partyMember} ${t.partyMemberLastName} ${t.emailAddress}`
          .toLowerCase()
          .includes(target.partyMemberLastName.toLowerCase()),
      ),
    ).toBe(true);
    expect(idsOf(await list(`eventId=${event.id}&search=${target.barcode.slice(0, 9).toLowerCase()}`))).toEqual([
      target.id,
    ]);
    await call('PATCH', `/api/v2/tickets/${target.id}`, { token, body: { data: { bibNumber: 'B-7781' } } });
    // Found once the consumer has caught up with the edit, not before (shared/lists/README.md "Search entries").
    expect(idsOf(await list(`typeId=${vip()}&search=b-7781`))).toEqual([]);
    await listsCaughtUp([target]);
    expect(idsOf(await list(`typeId=${vip()}&search=b-7781`))).toEqual([target.id]);
  });
});

describe('GET /ticket: bad requests', () => {
  const problem = async (query: string, field: string) => {
    const response = await call('GET', `${LIST}?${query}`, { token });
    expect(response.status, response.raw).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    const paths: string[] = response.body.errors.map((error: { path: string }) => error.path);
    expect(
      paths.some((path) => path === `query.${field}` || path.startsWith(`query.${field}.`)),
      paths.join(),
    ).toBe(true);
  };

  it('refuses a purchase range without an event (it is kept per event), naming what to add', async () => {
    await problem('purchasedFrom=2021-01-01', 'purchasedFrom');
    await problem('purchasedTo=2021-01-01', 'purchasedFrom');
  });

  it('refuses bad ids, bad dates and inverted ranges, naming the field', async () => {
    await problem('eventId=abc', 'eventId');
    await problem('orderId=0', 'orderId');
    await problem('customerId=-4', 'customerId');
    await problem(`eventId=${event.id}&updatedFrom=2026-02-30`, 'updatedFrom');
    await problem(`eventId=${event.id}&purchasedFrom=yesterday`, 'purchasedFrom');
    await problem(`eventId=${event.id}&purchasedFrom=2021-03-02&purchasedTo=2021-03-01`, 'purchasedTo');
    await problem('updatedFrom=1700000000&updatedTo=1600000000', 'updatedTo');
  });

  it('refuses unknown expansions and waivers on pages over 25 tickets', async () => {
    await problem(`eventId=${event.id}&_include=costs,everything`, '_include');
    await problem(`eventId=${event.id}&_include=waivers&_limit=26`, '_limit');
  });
});

describe('GET /ticket: paging', () => {
  it('pages without overlap or gaps, totalCount stable, by id', async () => {
    const pages = [0, 3, 6].map((offset) => list(`eventId=${event.id}&_limit=3&_offset=${offset}`));
    const answered = await Promise.all(pages);
    expect(answered.map((page) => page.totalCount)).toEqual([7, 7, 7]);
    expect(answered.flatMap(idsOf)).toEqual(sorted([...orderTickets, ...staffGa, ...staffVip]));
    const filtered = await Promise.all(
      [0, 2].map((offset) => list(`eventId=${event.id}&typeId=${ga()}&_limit=2&_offset=${offset}`)),
    );
    expect(filtered.map((page) => page.totalCount)).toEqual([4, 4]);
    expect(filtered.flatMap(idsOf)).toEqual(sorted([orderTickets[0]!, ...staffGa]));
  });
});

describe('GET /ticket: expansions', () => {
  it('answers costs, refundProtect, change, promoter, waveTime, waivers and user in their documented shapes', async () => {
    const page = await list(`orderId=${order.id}&_include=costs,refundProtect,change,promoter,waveTime,waivers,user`);
    expect(() => CursorPageAnswer(ListedTicketResource).parse(page)).not.toThrow();
    const [first] = page.data;
    const wave = event.waveTimes[0]!;
    expect(first!.costs).toEqual({
      price: first!.price,
      taxAmount: first!.taxAmount,
      gratuityAmount: first!.gratuityAmount,
      paidUponCheckout: first!.paidUponCheckout,
      total: first!.price + first!.taxAmount + first!.gratuityAmount,
    });
    expect(first!.refundProtect).toEqual({ status: 'none', amount: 0 });
    expect(first!.change).toBeNull();
    expect(first!.promoter).toBeNull();
    // An event-local time, in the event's offset (as GET /my-account/wave-time answers it): the same instant.
    expect(first!.waveTime).toEqual({
      id: wave.id,
      name: 'Wave A',
      startTime: expect.stringMatching(/^2027-06-01T\d\d:00:00[+-]\d\d:\d\d$/),
      capacity: 120,
    });
    expect(Date.parse(first!.waveTime.startTime)).toBe(Date.parse('2027-06-01T08:00:00Z'));
    const waivers = await call('GET', `/api/v2/tickets/${first!.id}/waivers`, { token });
    expect(first!.waivers).toEqual(waivers.body.data);
    expect(first!.waivers.length).toBeGreaterThan(0);
    expect(first!.user).toMatchObject({ id: customer.id, emailAddress: customer.email });
  });

  it('answers null promoter, waveTime and user for a staff sale, and only the expansions asked for', async () => {
    const page = await list(`barcode=${staffGa[0]!.barcode}&_include=promoter,waveTime,user`);
    expect(page.data[0]).toMatchObject({ promoter: null, waveTime: null, user: null });
    expect(page.data[0]).not.toHaveProperty('costs');
    expect(page.data[0]).not.toHaveProperty('waivers');
  });
});

describe('purchasedDate through a transfer', () => {
  it("keeps the original's purchase time on the replacement, so the purchase range still finds the holder's ticket", async () => {
    // An order of its own (the tests run in any order: the others' lists of `event` keep their tickets untransferred).
    const own = await seedEvent();
    const [gaOwn, vipOwn] = own.ticketTypes.map((type) => type.id) as [number, number];
    const buyer = await newCustomer();
    const placed = await atTime(PURCHASED, () => placeOrder(own, buyer.id, [gaOwn, vipOwn]));
    const response = await call('POST', `/api/v2/tickets/${placed.ticketIds[0]!}/transfer`, {
      token,
      body: { typeId: vipOwn },
    });
    expect(response.status, response.raw).toBe(200);
    const replacement = response.body.data;
    await listsCaughtUp([placed.ticketIds[0]!, replacement.id]);
    expect(replacement.purchasedDate).toBe(placed.purchasedDate);
    expect(replacement.created).not.toBe(placed.purchasedDate);
    const bought = await list(`eventId=${own.id}&purchasedFrom=2021-03-01&purchasedTo=2021-03-01`);
    expect(idsOf(bought)).toEqual(sorted([...placed.ticketIds.map((id) => ({ id })), replacement]));
  });
});

describe('barcode uniqueness', () => {
  it('refuses a PATCH to a barcode another ticket holds (409 barcode_taken), and frees it when that ticket is deleted', async () => {
    const own = await seedEvent();
    const [holder, taker] = await seedTickets(own, own.ticketTypes[0]!.id, 2);
    const code = `DUP-${randomInt(0, 1e9)}`;
    expect(
      (await call('PATCH', `/api/v2/tickets/${holder!.id}`, { token, body: { data: { barcode: code } } })).status,
    ).toBe(200);
    const refused = await call('PATCH', `/api/v2/tickets/${taker!.id}`, { token, body: { data: { barcode: code } } });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('barcode_taken');
    expect(idsOf(await list(`barcode=${code}`))).toEqual([holder!.id]);
    expect((await call('DELETE', `/api/v2/tickets/${holder!.id}`, { token })).status).toBeLessThan(300);
    expect(await list(`barcode=${code}`)).toMatchObject({ totalCount: 0, data: [] });
    expect(
      (await call('PATCH', `/api/v2/tickets/${taker!.id}`, { token, body: { data: { barcode: code } } })).status,
    ).toBe(200);
    expect(idsOf(await list(`barcode=${code}`))).toEqual([taker!.id]);
  });
});
