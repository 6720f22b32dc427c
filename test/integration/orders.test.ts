import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { INDEX_SHARDS } from '#shared/data/keys';
import { countStaffOrders } from '#shared/selling/data/order-staff';
import { startCancellation } from '#shared/selling/data/order-staff';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import { call, getPage, idsOf } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { newCustomer, unusedCustomerId } from '../support/customers.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { clearFaults, failures } from '../support/faults.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { mailTo } from '../support/mail.ts';
import { checkIn, readStats, soldOf, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';

/**
 * The staff's orders: `GET /orders` walked to its end by `next`, each filter, the event scope,
 * `GET /orders/{id}`, and `POST /orders/{id}/cancel`: with and without `force`, the tickets' states, the types'
 * `sold`, the check-in statistics, the history, the buyer's mail, idempotent repeats and a resumed half-way failure.
 */
const ORDERS = '/api/v2/orders';

afterEach(() => clearFaults());

let eventA: CreatedEvent;
let eventB: CreatedEvent;
/** Event A's orders, oldest first; event B's. */
let inA: Order[];
let inB: Order[];
let buyer: { id: number; email: string };
let reader: string;

beforeAll(async () => {
  [eventA, eventB] = await Promise.all([seedEvent(), seedEvent()]);
  buyer = await newCustomer();
  const [ga, vip] = eventA.ticketTypes.map((type) => type.id) as [number, number];
  const others = [unusedCustomerId(), unusedCustomerId()];
  inA = [];
  for (let n = 0; n < 11; n++)
    inA.push(
      await atTime(`2030-04-${String(n + 1).padStart(2, '0')}T10:00:00Z`, () =>
        placeOrder(eventA, n === 3 ? buyer.id : others[n % 2]!, n % 3 ? [ga] : [ga, vip], {
          ...(n === 3 ? { emailAddress: buyer.email } : {}),
        }),
      ),
    );
  inB = [
    await atTime('2030-04-02T12:00:00Z', () => placeOrder(eventB, others[0]!, [eventB.ticketTypes[0]!.id])),
    await atTime('2030-04-03T12:00:00Z', () => placeOrder(eventB, buyer.id, [eventB.ticketTypes[0]!.id])),
  ];
  reader = await adminToken(['orders:read']);
});

const newestFirst = (orders: Order[]) => [...orders].reverse().map((order) => order.id);

/** Every page of a list from its first, by `next`. */
async function walk(query: string, token = reader) {
  const ids: number[] = [];
  const totals: number[] = [];
  let cursor: string | null | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await getPage(`${ORDERS}?${query}${cursor ? `&_cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    ids.push(...idsOf(page));
    totals.push(page.totalCount);
    cursor = page.next;
    if (!cursor) break;
  }
  return { ids, totals };
}

describe('GET /orders', () => {
  it("walks an event's orders to the end with next, newest first, merged from its shards, every page's totalCount exact", async () => {
    // The orders lie in every shard of the event's list, so the walk's order is the merge's.
    expect(new Set(inA.map((order) => order.id % INDEX_SHARDS.eventOrders)).size).toBe(INDEX_SHARDS.eventOrders);
    const { ids, totals } = await walk(`eventId=${eventA.id}&_limit=3`);
    expect(ids).toEqual(newestFirst(inA));
    const paged = await getPage(`${ORDERS}?eventId=${eventA.id}&_offset=4&_limit=4`, reader);
    expect(idsOf(paged)).toEqual(newestFirst(inA).slice(4, 8));
    expect(new Set(totals)).toEqual(new Set([inA.length]));
  });

  it("lists every event's orders in one status for an unscoped reader, merged from the status's shards", async () => {
    const [c, d] = await Promise.all([seedEvent(), seedEvent()]);
    const placed = [
      await atTime('2031-07-01T09:00:00Z', () => placeOrder(c, unusedCustomerId(), [c.ticketTypes[0]!.id])),
      await atTime('2031-07-02T09:00:00Z', () => placeOrder(d, unusedCustomerId(), [d.ticketTypes[0]!.id])),
    ];
    const ours = (ids: number[]) => ids.filter((id) => placed.some((order) => order.id === id));
    const range = 'fromPurchaseDate=2031-07-01&toPurchaseDate=2031-07-02';
    expect(ours((await walk(`status=active&${range}&_limit=1`)).ids)).toEqual([placed[1]!.id, placed[0]!.id]);
    expect(ours((await walk(`status=cancelled&${range}`)).ids)).toEqual([]);
  });

  it('filters by status, customer, email and purchase range', async () => {
    expect(new Set(inB.map((order) => order.id % INDEX_SHARDS.eventStatusOrders)).size).toBe(2);
    const active = await getPage(`${ORDERS}?eventId=${eventB.id}&status=active`, reader);
    expect(idsOf(active)).toEqual(newestFirst(inB));
    expect(active.totalCount).toBe(2);
    expect((await getPage(`${ORDERS}?eventId=${eventB.id}&status=cancelled`, reader)).totalCount).toBe(0);

    const mine = await getPage(`${ORDERS}?customerId=${buyer.id}`, reader);
    expect(idsOf(mine)).toEqual([inA[3]!.id, inB[1]!.id]);
    expect(mine.totalCount).toBe(2);
    // A customer's orders in one status: judged on the orders read after their list entries (another test of this
    // file may have cancelled one of them first).
    for (const status of ['active', 'cancelled']) {
      const inStatus = mine.data.filter((order) => order.status === status).map((order) => Number(order.id));
      expect(idsOf(await getPage(`${ORDERS}?customerId=${buyer.id}&status=${status}`, reader)), status).toEqual(
        inStatus,
      );
    }
    const byMail = await getPage(
      `${ORDERS}?email=${encodeURIComponent(buyer.email.toUpperCase())}&eventId=${eventA.id}`,
      reader,
    );
    expect(idsOf(byMail)).toEqual([inA[3]!.id]);
    expect((await getPage(`${ORDERS}?email=nobody-here@test.local`, reader)).data).toEqual([]);

    const ranged = await getPage(
      `${ORDERS}?eventId=${eventA.id}&fromPurchaseDate=2030-04-03&toPurchaseDate=2030-04-05`,
      reader,
    );
    expect(idsOf(ranged)).toEqual([inA[4]!.id, inA[3]!.id, inA[2]!.id]);
    expect(ranged.totalCount).toBe(3);
    expect(ranged.totalCountIsEstimate).toBeUndefined();
  });

  it('answers entries with amounts, customer and payment; across events includes both', async () => {
    const page = await getPage(`${ORDERS}?_limit=100`, reader);
    const ids = idsOf(page);
    expect(ids).toEqual(expect.arrayContaining([inA[0]!.id, inB[0]!.id]));
    const entry = page.data.find((order) => Number(order.id) === inA[0]!.id)!;
    expect(entry).toMatchObject({
      eventId: eventA.id,
      status: 'active',
      customer: { id: inA[0]!.customerId },
      grandTotal: inA[0]!.grandTotal,
      payment: { paid: inA[0]!.grandTotal },
      ticketIds: inA[0]!.ticketIds.map(String),
    });
  });

  it("shows a scoped administrator only their events' orders", async () => {
    const scoped = await adminToken(['orders:read'], 999_310, { eventScope: [eventB.id] });
    const { ids, totals } = await walk('_limit=1', scoped);
    expect(ids).toEqual(newestFirst(inB));
    expect(totals).toEqual([2, 2]);
    expect((await getPage(`${ORDERS}?eventId=${eventA.id}`, scoped)).data).toEqual([]);
    expect(idsOf(await getPage(`${ORDERS}?customerId=${buyer.id}`, scoped))).toEqual([inB[1]!.id]);
    const other = await call('GET', `${ORDERS}/${inA[0]!.id}`, { token: scoped });
    expect(other.status).toBe(404);
    expect((await call('GET', `${ORDERS}/${inB[0]!.id}`, { token: scoped })).status).toBe(200);
  });

  it("reads an event's page as limit + 1 list entries and one batch read of their orders, whatever their status moves", async () => {
    const { result, reads } = await countReads(() => getPage(`${ORDERS}?eventId=${eventA.id}&_limit=3`, reader));
    expect(idsOf(result)).toEqual(newestFirst(inA).slice(0, 3));
    expect(reads.byCommand.QueryCommand).toBe(1);
    expect(reads.queriesWithoutLimit).toBe(0);
    // The entries (4) and their orders (4), beside the count's shards.
    expect(reads.itemsRead - (await countReads(() => countStaffOrders([eventA.id]))).reads.itemsRead).toBe(8);
  });

  it('refuses bad input with a 400 naming the parameter', async () => {
    for (const [query, path] of [
      ['status=lost', 'query.status'],
      ['eventId=abc', 'query.eventId'],
      ['email=not-an-address', 'query.email'],
      ['_limit=101', 'query._limit'],
      ['fromPurchaseDate=2030-05-01&toPurchaseDate=2030-04-01', 'query.fromPurchaseDate'],
      ['_offset=2&_cursor=abc', 'query._offset'],
      ['colour=red', 'query'],
    ] as const) {
      const response = await call('GET', `${ORDERS}?${query}`, { token: reader });
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(response.body.errors), query).toContain(path === 'query' ? 'colour' : path);
    }
  });
});

describe('GET /orders/{id}', () => {
  it('answers the order with its tickets, customer, payment and history', async () => {
    const order = inA[0]!;
    const response = await call('GET', `${ORDERS}/${order.id}`, { token: reader });
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toMatchObject({
      id: String(order.id),
      status: 'active',
      tickets: order.ticketIds.map((id) => ({ id: String(id), status: 'active' })),
      payment: { transactions: order.transactions },
      // Sold at the desk (test/support/factories/orders.ts): created by the staff member who sold it.
      history: [{ action: 'created', by: 'admin 999001' }],
    });
    expect((await call('GET', `${ORDERS}/987654321`, { token: reader })).status).toBe(404);
  });
});

describe('POST /orders/{id}/cancel', () => {
  const cancel = (token: string, id: number, body?: unknown, key?: string) =>
    call('POST', `${ORDERS}/${id}/cancel`, { token, body, headers: key ? { 'idempotency-key': key } : {} });

  it('refuses a checked-in order without force, then cancels it with force: tickets, sold, statistics, history, mail', async () => {
    const staff = await adminToken(['orders:read', 'orders:refund', 'tickets:read', 'checkin:scan'], 999_320);
    const order = inA[3]!; // the buyer's: GA + VIP
    const [first, second] = order.ticketIds as [number, number];
    expect((await checkIn(staff, first)).status).toBe(200);
    const soldBefore = await soldOf(eventA.id);
    const statsBefore = await readStats(staff, eventA.id);

    const refused = await cancel(staff, order.id, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'checked_in', ticketIds: [String(first)] });
    const untouched = await call('GET', `${ORDERS}/${order.id}`, { token: staff });
    expect(untouched.body.data.status).toBe('active');
    expect(untouched.body.data.cancellation).toBeUndefined();

    const done = await cancel(staff, order.id, { force: true }, 'cancel-1');
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      status: 'refunded',
      cancellation: { by: 'admin 999320', force: true, outcome: 'refunded' },
      tickets: [
        { id: String(first), status: 'cancelled' },
        { id: String(second), status: 'cancelled' },
      ],
    });
    expect(done.body.data.history.map((entry: { action: string }) => entry.action)).toEqual([
      'created',
      'cancel_started',
      'refunded',
    ]);

    const soldAfter = await soldOf(eventA.id);
    for (const [typeId, sold] of soldBefore) {
      const mine = [first, second].filter((_, i) => [order.typeIds[0], order.typeIds[1]][i] === typeId).length;
      expect(soldAfter.get(typeId), `type ${typeId}`).toBe(sold - mine);
    }
    const statsAfter = await readStats(staff, eventA.id);
    expect(statsAfter.soldTickets).toBe(statsBefore.soldTickets - 2);
    expect(statsAfter.checkedInTickets).toBe(statsBefore.checkedInTickets - 1);

    const forced = await call('GET', `${TICKETS}/${first}?_include=history`, { token: staff });
    expect(forced.status, forced.raw).toBe(200);
    expect(forced.body.data.processState).toBe(4);
    expect(JSON.stringify(forced.body.data)).toContain('force_cancel_order');
    const plain = await call('GET', `${TICKETS}/${second}?_include=history`, { token: staff });
    expect(JSON.stringify(plain.body.data)).toContain('"cancel_order"');
    expect(JSON.stringify(plain.body.data)).toContain('admin 999320');

    await listsCaughtUp([first, second]);
    const active = await call('GET', `${TICKETS}?event=${eventA.id}&exclude_process_states=4&_limit=100`, {
      token: staff,
    });
    expect(active.status, active.raw).toBe(200);
    expect(idsOf(active.body)).not.toContain(first);
    expect(idsOf(active.body)).not.toContain(second);

    const mail = await mailTo(buyer.email);
    expect(mail.at(-1)?.subject).toBe(`Your order ${order.id} was cancelled`);
    expect(mail.at(-1)?.body.text).toContain(String(first));

    const replay = await cancel(staff, order.id, { force: true }, 'cancel-1');
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(done.body);
    const again = await cancel(staff, order.id, { force: true }, 'cancel-2');
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('already_cancelled');

    const listed = await getPage(`${ORDERS}?eventId=${eventA.id}&status=refunded`, staff);
    expect(idsOf(listed)).toContain(order.id);
    expect(listed.totalCount).toBe(1);
    expect((await getPage(`${ORDERS}?eventId=${eventA.id}&status=active`, staff)).totalCount).toBe(inA.length - 1);
  });

  it('marks an order with nothing paid (comp) cancelled', async () => {
    const staff = await adminToken(['orders:refund'], 999_321);
    const event = await seedEvent();
    const free = await placeOrder(event, unusedCustomerId(), [event.ticketTypes[0]!.id], { method: 'comp' });
    const response = await cancel(staff, free.id, {});
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'cancelled', cancellation: { force: false } });
  });

  it('finishes a cancellation that failed half-way when retried with the same key', async () => {
    const staff = await adminToken(['orders:read', 'orders:refund', 'tickets:read'], 999_322);
    const event = await seedEvent();
    const [ga] = event.ticketTypes;
    const order = await placeOrder(event, unusedCustomerId(), [ga!.id, ga!.id, ga!.id]);
    const soldBefore = (await soldOf(event.id)).get(ga!.id)!;
    let transactions = 0;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && ++transactions > 1) throw failures.dynamoInternal();
        return next(args);
      },
      { step: 'finalizeRequest', name: 'ordersHalfWay' },
    );
    const failed = await cancel(staff, order.id, {}, 'half-way');
    db.middlewareStack.remove('ordersHalfWay');
    expect(failed.status).toBe(503);
    const between = (await call('GET', `${ORDERS}/${order.id}`, { token: staff })).body.data;
    expect(between.status).toBe('active');
    expect(between.cancellation).toMatchObject({ outcome: 'refunded' });
    expect(between.tickets.filter((t: { status: string }) => t.status === 'cancelled')).toHaveLength(1);

    const retried = await cancel(staff, order.id, {}, 'half-way');
    expect(retried.status, retried.raw).toBe(200);
    expect(retried.body.data.status).toBe('refunded');
    expect(retried.body.data.tickets.map((t: { status: string }) => t.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect((await soldOf(event.id)).get(ga!.id)).toBe(soldBefore - 3);
  });

  it('resumes a cancellation another request started', async () => {
    const staff = await adminToken(['orders:refund'], 999_323);
    const event = await seedEvent();
    const order = await placeOrder(event, unusedCustomerId(), [event.ticketTypes[0]!.id]);
    const at = new Date().toISOString();
    await startCancellation(
      order,
      { at, by: 'admin 7', force: false, outcome: 'refunded' },
      {
        at,
        by: 'admin 7',
        action: 'cancel_started',
        force: false,
      },
    );
    const response = await cancel(staff, order.id, {});
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'refunded', cancellation: { by: 'admin 7' } });
  });

  it('answers 404 for an order outside the scope and changes nothing', async () => {
    const scoped = await adminToken(['orders:refund'], 999_324, { eventScope: [eventB.id] });
    const response = await cancel(scoped, inA[0]!.id, { force: true });
    expect(response.status).toBe(404);
    expect((await call('GET', `${ORDERS}/${inA[0]!.id}`, { token: reader })).body.data.status).toBe('active');
    expect((await cancel(scoped, inA[0]!.id, { force: 'yes' })).status).toBe(400);
    expect((await cancel(scoped, inA[0]!.id, { reason: 'x' })).status).toBe(400);
  });
});
