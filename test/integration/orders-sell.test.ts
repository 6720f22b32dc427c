import { beforeAll, describe, expect, it } from 'vitest';
import { findTicketType } from '#shared/events/data/events';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call, getPage, idsOf } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { readStats, soldOf, TICKETS } from '../support/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';

/**
 * The box office: `POST /orders` sells an event's tickets at the desk, the order active at once
 * with its tickets, under the portal's inventory rule; over HTTP, with the lists, statistics, stock, mail, event
 * scope, idempotent retries and the write units of a one-ticket sale.
 */
const ORDERS = '/api/v2/orders';
const STAFF_ID = 999_410;
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:sell', 'orders:read', 'tickets:read'], STAFF_ID);
});

const onSale = (total = 100, price = 12.5) =>
  seedEvent({ published: true, questions: [], ticketTypes: [{ name: 'Runner', price, total }] });

const attendee = (n: number) => ({ firstName: `Ada${n}`, lastName: 'Lovelace', email: `ada${n}@example.com` });

function saleOf(event: CreatedEvent, quantity: number, overrides: Record<string, unknown> = {}) {
  return {
    eventId: event.id,
    lines: [{ typeId: event.ticketTypes[0]!.id, quantity }],
    payment: { method: 'cash' },
    buyer: { emailAddress: newAddress('buyer'), firstName: 'Grace', lastName: 'Hopper' },
    attendees: Array.from({ length: quantity }, (_, n) => attendee(n)),
    ...overrides,
  };
}

const sell = (body: unknown, { token = staff, key }: { token?: string; key?: string } = {}) =>
  call('POST', ORDERS, { token, body, headers: key ? { 'idempotency-key': key } : {} });

async function stockOf(typeId: number) {
  const type = (await findTicketType(typeId))!;
  const shards = await readStock(type);
  return {
    left: shards.reduce((sum, shard) => sum + shard.left, 0),
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
    total: type.total,
  };
}

describe('POST /orders', () => {
  it('sells: the order active with its tickets, in the lists, statistics, sold and stock, the buyer mailed', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const body = saleOf(event, 2, { payment: { method: 'card_present', reference: 'terminal-7 receipt 42' } });
    const answer = await sell(body);
    expect(answer.status, answer.raw).toBe(201);
    const order = answer.body.data;
    expect(answer.body.count).toBe(1);
    expect(order).toMatchObject({
      eventId: event.id,
      status: 'active',
      grandTotal: 25,
      customer: { id: 0, emailAddress: body.buyer.emailAddress, purchaser: 'Grace Hopper' },
      payment: {
        paid: 25,
        transactions: [{ amount: 25, processor: 'card_present', reference: 'terminal-7 receipt 42' }],
      },
      history: [{ action: 'created', by: `admin ${STAFF_ID}` }],
    });
    expect(order.tickets.map((ticket: { status: string; name: string }) => [ticket.status, ticket.name])).toEqual([
      ['active', 'Ada0 Lovelace'],
      ['active', 'Ada1 Lovelace'],
    ]);
    expect((await call('GET', `${ORDERS}/${order.id}`, { token: staff })).body.data).toEqual(order);

    expect((await soldOf(event.id)).get(typeId)).toBe(2);
    expect(await stockOf(typeId)).toEqual({ left: 98, held: 0, sold: 2, total: 100 });
    expect((await readStats(staff, event.id)).soldTickets).toBe(2);
    await listsCaughtUp(order.ticketIds.map(Number));
    const listed = await call('GET', `${TICKETS}?event=${event.id}&_limit=10`, { token: staff });
    expect(listed.status, listed.raw).toBe(200);
    expect(idsOf(listed.body).sort()).toEqual(order.ticketIds.map(Number).sort());
    const ticket = await call('GET', `${TICKETS}/${order.ticketIds[0]}?_include=history`, { token: staff });
    expect(JSON.stringify(ticket.body.data)).toContain(`admin ${STAFF_ID}`);
    expect(idsOf(await getPage(`${ORDERS}?eventId=${event.id}&status=active`, staff))).toEqual([Number(order.id)]);

    const mail = await mailTo(body.buyer.emailAddress);
    expect(mail).toHaveLength(1);
    for (const { barcode } of order.tickets) expect(mail[0]!.body.text).toContain(barcode);
  });

  it("sells to a customer's account: the order and tickets in their portal", async () => {
    const event = await onSale();
    const customer = await newCustomer();
    const answer = await sell(saleOf(event, 1, { customerId: customer.id, buyer: { emailAddress: customer.email } }));
    expect(answer.status, answer.raw).toBe(201);
    // Without the buyer's names, the order's purchaser is the account's name.
    expect(answer.body.data.customer).toMatchObject({ id: customer.id, purchaser: answer.body.data.customer.name });
    const mine = await call('GET', `/api/v2/my-account/orders?includeTickets=true`, {
      token: await customerToken(customer.id, { email: customer.email }),
    });
    expect(mine.status, mine.raw).toBe(200);
    expect(idsOf(mine.body)).toContain(Number(answer.body.data.id));

    const unknown = await sell(saleOf(event, 1, { customerId: 987_654_321 }));
    expect(unknown.status).toBe(400);
    expect(unknown.raw).toContain('body.customerId');
  });

  it('comp: every ticket priced 0, the transaction amount 0', async () => {
    const event = await onSale(10, 40);
    const answer = await sell(saleOf(event, 2, { payment: { method: 'comp' } }));
    expect(answer.status, answer.raw).toBe(201);
    expect(answer.body.data).toMatchObject({ grandTotal: 0, payment: { paid: 0 } });
    expect(answer.body.data.payment.transactions).toEqual([
      expect.objectContaining({ amount: 0, processor: 'comp', reference: `order-${answer.body.data.id}-comp` }),
    ]);
    expect(answer.body.data.tickets.map((ticket: { price: number }) => ticket.price)).toEqual([0, 0]);
  });

  it('never oversells: sold out is 409 naming the type and what is left, with nothing written', async () => {
    const event = await onSale(3);
    const typeId = event.ticketTypes[0]!.id;
    expect((await sell(saleOf(event, 2))).status).toBe(201);
    const { result, writes } = await countWrites(() => sell(saleOf(event, 2)));
    expect(result.status, result.raw).toBe(409);
    expect(result.body).toMatchObject({ reason: 'sold_out', typeId, left: 1 });
    expect(writes.items, describeWrites(writes)).toEqual([]);
    expect(await stockOf(typeId)).toEqual({ left: 1, held: 0, sold: 2, total: 3 });

    // Held tickets are not for sale: a customer's reservation of the last one leaves the desk none.
    const customer = await newCustomer();
    const held = await call('POST', '/api/v2/my-account/reservations', {
      token: await customerToken(customer.id),
      body: { eventId: event.id, lines: [{ typeId, quantity: 1 }] },
    });
    expect(held.status, held.raw).toBe(201);
    const none = await sell(saleOf(event, 1));
    expect(none.body).toMatchObject({ reason: 'sold_out', left: 0 });
    expect(await stockOf(typeId)).toEqual({ left: 0, held: 1, sold: 2, total: 3 });
  });

  it('sells many at once without overselling', async () => {
    const event = await onSale(5);
    const typeId = event.ticketTypes[0]!.id;
    const answers = await Promise.all(Array.from({ length: 8 }, () => sell(saleOf(event, 1))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    expect(await stockOf(typeId)).toEqual({ left: 0, held: 0, sold: 5, total: 5 });
    expect((await readStats(staff, event.id)).soldTickets).toBe(5);
  });

  it('refuses an unpublished event (not_on_sale) but sells outside onSaleDate and cutOff, and past 10 tickets (max_per_order)', async () => {
    const draft = await seedEvent({ questions: [], ticketTypes: [{ name: 'Runner', price: 5, total: 50 }] });
    const closed = await sell(saleOf(draft, 1));
    expect(closed.status, closed.raw).toBe(409);
    expect(closed.body.reason).toBe('not_on_sale');

    const late = await seedEvent({
      published: true,
      cutOff: '2020-01-01T00:00:00Z',
      questions: [],
      ticketTypes: [{ name: 'Runner', price: 5, total: 50 }],
    });
    expect((await sell(saleOf(late, 1))).status).toBe(201);

    const many = await sell(saleOf(late, 11));
    expect(many.status, many.raw).toBe(409);
    expect(many.body).toMatchObject({ reason: 'max_per_order', maxPerOrder: 10 });
  });

  it('refuses bad input with a 400 naming the field, nothing sold', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 1 }, 'amount'],
      [{ payment: { method: 'stripe' } }, 'body.payment.method'],
      [{ attendees: [attendee(1), attendee(2)] }, 'body.attendees'],
      [{ lines: [{ typeId: 987_654_321, quantity: 1 }] }, 'body.lines.0.typeId'],
      [{ buyer: { emailAddress: 'not-an-address' } }, 'body.buyer.emailAddress'],
    ];
    for (const [overrides, field] of cases) {
      const answer = await sell(saleOf(event, 1, overrides));
      expect(answer.status, JSON.stringify(overrides)).toBe(400);
      expect(answer.raw).toContain(field);
    }
    expect(await stockOf(typeId)).toEqual({ left: 100, held: 0, sold: 0, total: 100 });
  });

  it("answers 404 for an event outside a scoped administrator's events, and sells within them", async () => {
    const [mine, other] = await Promise.all([onSale(), onSale()]);
    const scoped = await adminToken(['orders:sell'], 999_411, { eventScope: [mine.id] });
    const outside = await sell(saleOf(other, 1), { token: scoped });
    expect(outside.status, outside.raw).toBe(404);
    expect(await stockOf(other.ticketTypes[0]!.id)).toMatchObject({ left: 100, sold: 0 });
    expect((await sell(saleOf(mine, 1), { token: scoped })).status).toBe(201);
    expect((await sell(saleOf({ ...mine, id: 987_654_321 }, 1))).status).toBe(404);
  });

  it('is idempotent: a retry with the same Idempotency-Key answers the first order, one order sold', async () => {
    const event = await onSale();
    const body = saleOf(event, 2);
    const first = await sell(body, { key: 'desk-sale-1' });
    expect(first.status, first.raw).toBe(201);
    const again = await sell(body, { key: 'desk-sale-1' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await getPage(`${ORDERS}?eventId=${event.id}`, staff)).totalCount).toBe(1);
    expect((await soldOf(event.id)).get(event.ticketTypes[0]!.id)).toBe(2);
    const reused = await sell(saleOf(event, 1), { key: 'desk-sale-1' });
    expect(reused.status).toBe(422);
  });
});
