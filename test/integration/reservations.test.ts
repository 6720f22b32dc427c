import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { findTicketType } from '#shared/events/data/events';
import { createShippingMethod } from '#shared/selling/data/shipping-methods';
import { DUE_SHARDS, dueEntries, dueMinute, putDue, recordSweptMinute } from '#shared/selling/data/reservation-due';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent, NewEvent } from '#shared/events/domain/event';
import { lapseDueReservations } from '#shared/selling/use-cases/lapse-reservations';
import { runAs } from '../../bin/local/invoke.ts';
import { blankingId, call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { listOrderTickets } from '../support/stored-records.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Reservations over HTTP: a hold is priced by the server, refused for each reason with
 * nothing held, owned by its customer, released and lapsed with its stock back, and never
 * more than a type's stock however many buyers race for it (left + held + sold = total).
 */
const BASE = '/api/v2/my-account/reservations';

afterEach(() => resetClock());

const onSale = (overrides: Partial<NewEvent> = {}) =>
  seedEvent({
    published: true,
    ticketTypes: [
      { name: 'Runner', price: 25.5, total: 1000 },
      { name: 'Last ones', price: 40, total: 10 },
    ],
    ...overrides,
  });

async function reserve(customerId: number, body: unknown, headers: Record<string, string> = {}) {
  return call('POST', BASE, { token: await customerToken(customerId), body, headers });
}

/** A type's stock as stored: what is left, held, and sold (its `sold`), and its total. */
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

const expectInvariant = async (typeId: number) => {
  const stock = await stockOf(typeId);
  expect(stock.left + stock.held + stock.sold).toBe(stock.total);
  return stock;
};

const typeOf = (event: CreatedEvent, n: number) => event.ticketTypes[n]!.id;

describe('POST /my-account/reservations', () => {
  it('holds the tickets, priced by the server with per-ticket shipping, and answers 201', async () => {
    const event = await onSale();
    const method = await createShippingMethod({
      name: 'Courier',
      description: '',
      charge: 5,
      twoPlusCharge: 2.5,
      chargeType: 'per_ticket',
      hasETickets: false,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    });
    const customer = unusedCustomerId();
    const answer = await reserve(customer, {
      eventId: event.id,
      lines: [
        { typeId: typeOf(event, 0), quantity: 2 },
        { typeId: typeOf(event, 1), quantity: 1 },
      ],
      shippingMethodId: method.id,
    });
    expect(answer.status).toBe(201);
    const reservation = answer.body.data;
    expect(reservation).toMatchObject({
      eventId: event.id,
      status: 'held',
      lines: [
        { typeId: typeOf(event, 0), name: 'Runner', quantity: 2, waveTimeId: null, unitPrice: 25.5, amount: 51 },
        { typeId: typeOf(event, 1), name: 'Last ones', quantity: 1, waveTimeId: null, unitPrice: 40, amount: 40 },
      ],
      shippingMethodId: method.id,
      amounts: { tickets: 91, shipping: 10, total: 101, currency: 'EUR' },
    });
    expect(Date.parse(reservation.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(reservation.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(await expectInvariant(typeOf(event, 0))).toMatchObject({ held: 2, left: 998 });
    expect(await expectInvariant(typeOf(event, 1))).toMatchObject({ held: 1, left: 9 });

    const got = await call('GET', `${BASE}/${reservation.id}`, { token: await customerToken(customer) });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(reservation);
  });

  it("answers another customer's reservation 404, for GET and DELETE alike, and changes nothing", async () => {
    const event = await onSale();
    const owner = unusedCustomerId();
    const { body } = await reserve(owner, { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 3 }] });
    const other = await customerToken(unusedCustomerId());
    expect((await call('GET', `${BASE}/${body.data.id}`, { token: other })).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${body.data.id}`, { token: other })).status).toBe(404);
    expect((await call('GET', `${BASE}/999999999`, { token: other })).status).toBe(404);
    expect(await stockOf(typeOf(event, 1))).toMatchObject({ held: 3, left: 7 });
  });

  it('refuses a client-sent price, amount or unknown field with 400 naming it, holding nothing', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const typeId = typeOf(event, 1);
    for (const [body, path] of [
      [{ eventId: event.id, lines: [{ typeId, quantity: 1, unitPrice: 0 }] }, 'body.lines.0'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 1, amount: 0 }] }, 'body.lines.0'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 1 }], amounts: { total: 0 } }, 'body'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 1 }], total: 0 }, 'body'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 0 }] }, 'body.lines.0.quantity'],
      [{ eventId: event.id, lines: [] }, 'body.lines'],
      [{ eventId: event.id, lines: [{ typeId: 999_999_999, quantity: 1 }] }, 'body.lines.0.typeId'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 1, waveTimeId: 999_999_999 }] }, 'body.lines.0.waveTimeId'],
      [{ eventId: event.id, lines: [{ typeId, quantity: 1 }], shippingMethodId: 999_999_999 }, 'body.shippingMethodId'],
      [{ eventId: 999_999_999, lines: [{ typeId, quantity: 1 }] }, 'body.eventId'],
    ] as const) {
      const refused = await reserve(customer, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors.map((error: { path: string }) => error.path).join()).toContain(path);
    }
    expect(await stockOf(typeId)).toMatchObject({ held: 0, left: 10 });
  });

  it('takes each id as a number or as the digits the portal answers it in, holding the same; other strings are 400', async () => {
    const event = await onSale({
      waveTimes: [{ name: 'Wave A', startTime: '2400-06-01T09:00:00Z', capacity: 100 }],
    });
    const method = await createShippingMethod({
      name: 'Courier',
      description: '',
      charge: 5,
      twoPlusCharge: 2.5,
      chargeType: 'per_ticket',
      hasETickets: false,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    });
    // The ids as the buyer's page reads them: the type list answers `"id": "7"`.
    const listed = await call('GET', `/api/v2/my-account/ticket-type/${event.id}`, {
      token: await customerToken(unusedCustomerId()),
    });
    const typeId = listed.body.data.find((type: { name: string }) => type.name === 'Runner').id;
    expect(typeId).toBe(String(typeOf(event, 0)));
    const waveTimeId = event.waveTimes[0]!.id;
    const asNumbers = {
      eventId: event.id,
      lines: [{ typeId: Number(typeId), quantity: 2, waveTimeId }],
      shippingMethodId: method.id,
    };
    const asDigits = {
      eventId: String(event.id),
      lines: [{ typeId, quantity: 2, waveTimeId: String(waveTimeId) }],
      shippingMethodId: String(method.id),
    };
    const [byNumbers, byDigits] = [
      await reserve(unusedCustomerId(), asNumbers),
      await reserve(unusedCustomerId(), asDigits),
    ];
    expect(byDigits.status, byDigits.raw).toBe(201);
    const held = ({ id: _id, expiresAt: _expires, ...rest }: Record<string, unknown>) => rest;
    expect(held(byDigits.body.data)).toEqual(held(byNumbers.body.data));
    expect(byDigits.body.data).toMatchObject({ eventId: event.id, shippingMethodId: method.id });
    expect(byDigits.body.data.lines[0]).toMatchObject({ typeId: typeOf(event, 0), waveTimeId });

    const customer = unusedCustomerId();
    for (const bad of ['07', '7a', '0', ' 7', '', '1234567890123456', '-7', '7.0']) {
      const refused = await reserve(customer, { ...asDigits, eventId: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          path: 'body.eventId',
          message: 'eventId must be a positive whole number, or its digits as a string (at most 15)',
        },
      ]);
    }
    expect(await stockOf(typeOf(event, 0))).toMatchObject({ held: 4 });
  });

  it('answers an unpublished event exactly as a missing one, holding nothing', async () => {
    const draft = await onSale({ published: false });
    const missing = 999_999_999;
    const typeId = typeOf(draft, 0);
    const answerFor = async (eventId: number) => {
      const refused = await reserve(unusedCustomerId(), { eventId, lines: [{ typeId, quantity: 1 }] });
      expect(refused.status, refused.raw).toBe(400);
      expect(refused.body.errors).toEqual([{ path: 'body.eventId', message: `Event ${eventId} does not exist.` }]);
      return blankingId(refused, eventId);
    };
    expect(await answerFor(draft.id)).toBe(await answerFor(missing));
    expect(await stockOf(typeId)).toMatchObject({ held: 0 });
  });

  it('refuses with 409 not_on_sale an unpublished event to a customer holding an order of it, one before its onSaleDate and one from its cutOff', async () => {
    const draft = await onSale({ published: false });
    const buyer = unusedCustomerId();
    await placeOrder(draft, buyer, [typeOf(draft, 1)]);
    const refused = await reserve(buyer, { eventId: draft.id, lines: [{ typeId: typeOf(draft, 0), quantity: 1 }] });
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.reason).toBe('not_on_sale');
    const events = [
      await onSale({ onSaleDate: '2099-01-01T00:00:00Z' }),
      await onSale({ cutOff: '2020-01-01T00:00:00Z' }),
    ];
    for (const event of events) {
      const refused = await reserve(unusedCustomerId(), {
        eventId: event.id,
        lines: [{ typeId: typeOf(event, 0), quantity: 1 }],
      });
      expect(refused.status).toBe(409);
      expect(refused.body.reason).toBe('not_on_sale');
      expect(await stockOf(typeOf(event, 0))).toMatchObject({ held: 0 });
    }
  });

  it('refuses more than 10 tickets with 409 max_per_order', async () => {
    const event = await onSale();
    const refused = await reserve(unusedCustomerId(), {
      eventId: event.id,
      lines: [
        { typeId: typeOf(event, 0), quantity: 6 },
        { typeId: typeOf(event, 1), quantity: 5 },
      ],
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'max_per_order', maxPerOrder: 10 });
  });

  it('refuses a second reservation of the event with 409 reservation_exists naming the first', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const first = await reserve(customer, { eventId: event.id, lines: [{ typeId: typeOf(event, 0), quantity: 1 }] });
    const second = await reserve(customer, { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 1 }] });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ reason: 'reservation_exists', reservationId: first.body.data.id });
    expect(await stockOf(typeOf(event, 1))).toMatchObject({ held: 0 });
  });

  it('refuses with 409 sold_out naming the type and what it has left', async () => {
    const event = await onSale();
    await reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 7 }] });
    const refused = await reserve(unusedCustomerId(), {
      eventId: event.id,
      lines: [{ typeId: typeOf(event, 1), quantity: 4 }],
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'sold_out', typeId: typeOf(event, 1), left: 3 });
  });

  it('answers a retry with the same Idempotency-Key as the first time, holding once', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const body = { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 2 }] };
    const headers = { 'idempotency-key': `reserve-${customer}` };
    const first = await reserve(customer, body, headers);
    const retry = await reserve(customer, body, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await stockOf(typeOf(event, 1))).toMatchObject({ held: 2 });
  });

  it('counts 60 reservations a minute per network, whoever holds, then answers 429 with Retry-After', async () => {
    const event = await onSale();
    const sourceIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const body = { eventId: event.id, lines: [{ typeId: typeOf(event, 0), quantity: 1 }] };
    const customers = [unusedCustomerId(), unusedCustomerId()];
    const answers = [];
    for (let n = 0; n < 61; n++)
      answers.push(await call('POST', BASE, { token: await customerToken(customers[n % 2]!), body, sourceIp }));
    expect(answers.slice(0, 60).map((answer) => answer.status)).toEqual([201, 201, ...Array(58).fill(409)]);
    expect(answers[60]!.status).toBe(429);
    expect(Number(answers[60]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another network is not held to this one's window.
    expect((await reserve(unusedCustomerId(), body)).status).toBe(201);
  });

  it('holds exactly the last 10 tickets when 50 buyers race for them, never more', async () => {
    const event = await onSale();
    const typeId = typeOf(event, 1);
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () =>
        reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 1 }] }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    // A refusal is sold_out, or a retry asked of a buyer outraced while places were still left (never a false sold_out).
    expect(
      answers
        .filter((answer) => answer.status !== 201)
        .every((answer) => ['sold_out', 'concurrent_update'].includes(answer.body.reason)),
    ).toBe(true);
    expect(await expectInvariant(typeId)).toMatchObject({ held: 10, left: 0 });
  });

  it('spreads a stadium type over 64 stock items, one per 100 tickets, each buyer holding from one of them', async () => {
    const event = await onSale({ ticketTypes: [{ name: 'Rush', price: 10, total: 6400 }] });
    const type = (await findTicketType(typeOf(event, 0)))!;
    expect(type.stockShards).toBe(64);
    const shards = await readStock(type);
    // 100 on each: each buyer's hold is one conditional write on one of them (test/unit/reservation.test.ts: the plans).
    expect(shards.map((shard) => shard.left)).toEqual(Array(64).fill(100));
    const buyers = Array.from({ length: 8 }, () => unusedCustomerId());
    const held = await Promise.all(
      buyers.map((customer) => reserve(customer, { eventId: event.id, lines: [{ typeId: type.id, quantity: 10 }] })),
    );
    expect(held.every((answer) => answer.status === 201)).toBe(true);
    expect(await expectInvariant(type.id)).toMatchObject({ held: 80, left: 6320 });
  });

  it('finds the last places on whichever of the 64 stock items they sit, and only then is sold out', async () => {
    const event = await onSale({ ticketTypes: [{ name: 'Rush', price: 10, total: 6400 }] });
    const typeId = typeOf(event, 0);
    // Lowered from the fullest items first: 5 left on one of the 64, none on the rest (a hold reads 4 at random first).
    const token = await adminToken();
    const lowered = await call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, {
      token,
      body: { total: 5 },
    });
    expect(lowered.status, lowered.raw).toBe(200);
    const lines = (quantity: number) => ({ eventId: event.id, lines: [{ typeId, quantity }] });
    const first = await reserve(unusedCustomerId(), lines(2));
    expect(first.status, first.raw).toBe(201);
    // 3 left on one item: a buyer of 4 is told exactly what is left, a buyer of 3 gets them.
    const short = await reserve(unusedCustomerId(), lines(4));
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ reason: 'sold_out', typeId, left: 3 });
    expect((await reserve(unusedCustomerId(), lines(3))).status).toBe(201);
    const none = await reserve(unusedCustomerId(), lines(1));
    expect(none.body).toMatchObject({ reason: 'sold_out', left: 0 });
    expect(await expectInvariant(typeId)).toMatchObject({ held: 5, left: 0 });
  });

  it('holds exactly the last 12 places of a type of 64 stock items when 30 buyers race for them, never more', async () => {
    const event = await onSale({ ticketTypes: [{ name: 'Rush', price: 10, total: 6400 }] });
    const typeId = typeOf(event, 0);
    const token = await adminToken();
    // 12 left over two items (10 on one, 2 on another: a total lowered, then raised onto item 0).
    await call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, { token, body: { total: 10 } });
    await call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, { token, body: { total: 12 } });
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () =>
        reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 1 }] }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(12);
    // A refusal is sold_out, or a retry asked of a buyer outraced while places were still left (never a false sold_out).
    expect(
      answers
        .filter((answer) => answer.status !== 201)
        .every((answer) => ['sold_out', 'concurrent_update'].includes(answer.body.reason)),
    ).toBe(true);
    expect(await expectInvariant(typeId)).toMatchObject({ held: 12, left: 0 });
  });

  it('pieces a line from several stock items when none holds it whole', async () => {
    const event = await onSale({ ticketTypes: [{ name: 'Rush', price: 10, total: 6400 }] });
    const typeId = typeOf(event, 0);
    const token = await adminToken();
    const setTotal = (total: number) =>
      call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, { token, body: { total } });
    const lines = (quantity: number) => ({ eventId: event.id, lines: [{ typeId, quantity }] });
    // 5 left on one item; 2 of them held; a rise of 2 lands on item 0: 3 on one item, 2 on another.
    expect((await setTotal(5)).status).toBe(200);
    expect((await reserve(unusedCustomerId(), lines(2))).status).toBe(201);
    expect((await setTotal(7)).status).toBe(200);
    expect((await readStock((await findTicketType(typeId))!)).filter((shard) => shard.left > 0)).toHaveLength(2);
    expect((await reserve(unusedCustomerId(), lines(5))).status).toBe(201);
    expect(await expectInvariant(typeId)).toMatchObject({ held: 7, left: 0 });
  });
});

describe('DELETE /my-account/reservations/{id}', () => {
  it('releases the tickets back to stock in one go, and answers the same again (idempotent)', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const token = await customerToken(customer);
    const { body } = await reserve(customer, { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 4 }] });
    const released = await call('DELETE', `${BASE}/${body.data.id}`, { token });
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ id: body.data.id, status: 'released' });
    expect(await expectInvariant(typeOf(event, 1))).toMatchObject({ held: 0, left: 10 });
    const again = await call('DELETE', `${BASE}/${body.data.id}`, { token });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('released');
    expect(await stockOf(typeOf(event, 1))).toMatchObject({ held: 0, left: 10 });
    // The customer may reserve the event again after a short cool-down (test/integration/reservations-hoarding.test.ts).
    const next = await atTime(Date.now() + 3 * 60_000, () =>
      reserve(customer, { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 1 }] }),
    );
    expect(next.status).toBe(201);
  });
});

describe('the lapsing job (functions/jobs/release-reservations.ts)', () => {
  // The job's lapse alone: its clocks run minutes ahead, where the job's sweep of stuck orders would take another
  // file's sale in flight for one stuck (test/integration/stuck-orders.test.ts runs the whole job).
  const lapse = () => runAs('release-reservations', () => lapseDueReservations(50_000));

  it("deletes a due entry whose hold's transaction never committed (put just before it), and lapses nothing for it", async () => {
    // An id no reservation has, due a month on (past every other test's clock): as a hold refused after its entry
    // was put (shared/selling/data/reservation-due.ts `putDue`).
    const due = Date.now() + 30 * 24 * 3600_000 + randomInt(24 * 60) * 60_000;
    const entry = { id: 2_000_000_000 + randomInt(100_000_000), expiresAt: new Date(due).toISOString() };
    await putDue(entry);
    const [minute, shard, later] = [dueMinute(entry.expiresAt), entry.id % DUE_SHARDS, new Date(due + 60_000)];
    const listed = async () => (await dueEntries(minute, shard, later, 100)).map((one) => one.reservationId);
    expect(await listed()).toContain(entry.id);
    // The job starts after the minute it last drained: the one before this entry's (another file's run may move it).
    for (let run = 0; run < 3 && (await listed()).includes(entry.id); run++) {
      await recordSweptMinute(dueMinute(new Date(due - 60_000)));
      await atTime(later.getTime(), lapse);
    }
    expect(await listed()).not.toContain(entry.id);
  });

  it("lapses a reservation once its event's minutes ran out, its tickets on sale again, and keeps a younger one", async () => {
    const event = await onSale();
    const typeId = typeOf(event, 1);
    const [early, late] = [unusedCustomerId(), unusedCustomerId()];
    const start = Date.now();
    const first = await atTime(start, () => reserve(early, { eventId: event.id, lines: [{ typeId, quantity: 6 }] }));
    const second = await atTime(start + 5 * 60_000, () =>
      reserve(late, { eventId: event.id, lines: [{ typeId, quantity: 4 }] }),
    );
    expect(
      (await reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 1 }] })).body.reason,
    ).toBe('sold_out');

    await atTime(start + 11 * 60_000, lapse);
    const [a, b] = await Promise.all(
      [
        [first, early],
        [second, late],
      ].map(async ([answer, customer]) =>
        call('GET', `${BASE}/${(answer as { body: any }).body.data.id}`, {
          token: await customerToken(customer as number),
        }),
      ),
    );
    expect(a!.body.data.status).toBe('lapsed');
    expect(b!.body.data.status).toBe('held');
    expect(await expectInvariant(typeId)).toMatchObject({ held: 4, left: 6 });
    // Lapsed twice changes nothing.
    await atTime(start + 12 * 60_000, lapse);
    expect(await expectInvariant(typeId)).toMatchObject({ held: 4, left: 6 });
    const retaken = await reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 6 }] });
    expect(retaken.status).toBe(201);
  });

  it("holds for the event's reservationMinutes, set by PATCH /events/{id}", async () => {
    const event = await onSale();
    const admin = await adminToken();
    const patched = await call('PATCH', `/api/v2/events/${event.id}`, {
      token: admin,
      body: { reservationMinutes: 2, version: 1 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.reservationMinutes).toBe(2);
    for (const reservationMinutes of [0, 61, 1.5])
      expect(
        (await call('PATCH', `/api/v2/events/${event.id}`, { token: admin, body: { reservationMinutes } })).status,
      ).toBe(400);
    const answer = await reserve(unusedCustomerId(), {
      eventId: event.id,
      lines: [{ typeId: typeOf(event, 0), quantity: 1 }],
    });
    expect(Date.parse(answer.body.data.expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 60_000);
  });
});

describe('the stock beside the other paths', () => {
  it('GET /my-account/ticket-type/{eventId} counts held tickets as not available', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const token = await customerToken(customer);
    const available = async () =>
      (await call('GET', `/api/v2/my-account/ticket-type/${event.id}`, { token })).body.data.map(
        (entry: { available: number }) => entry.available,
      );
    expect(await available()).toEqual([1000, 10]);
    const held = await reserve(customer, { eventId: event.id, lines: [{ typeId: typeOf(event, 1), quantity: 4 }] });
    expect(await available()).toEqual([1000, 6]);
    await call('DELETE', `${BASE}/${held.body.data.id}`, { token });
    expect(await available()).toEqual([1000, 10]);
  });

  it('keeps left + held + sold = total through an order, a deletion and edits of the total; a total below sold + held is 409', async () => {
    const event = await onSale();
    const typeId = typeOf(event, 1);
    const admin = await adminToken();
    await reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 3 }] });
    const order = await placeOrder(event, unusedCustomerId(), [typeId, typeId]);
    expect(await expectInvariant(typeId)).toEqual({ left: 5, held: 3, sold: 2, total: 10 });
    const [ticket] = await listOrderTickets(order.id);
    expect((await call('DELETE', `/api/v2/tickets/${ticket!.id}`, { token: admin })).status).toBe(204);
    expect(await expectInvariant(typeId)).toEqual({ left: 6, held: 3, sold: 1, total: 10 });

    const edit = async (total: number) => {
      const { body } = await call('GET', `/api/v2/events/${event.id}`, { token: admin });
      return call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, {
        token: admin,
        body: { total, version: body.data.version },
      });
    };
    const below = await edit(3);
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ reason: 'total_below_sold', sold: 1, held: 3 });
    expect((await edit(4)).status).toBe(200);
    expect(await expectInvariant(typeId)).toEqual({ left: 0, held: 3, sold: 1, total: 4 });
    expect((await edit(12)).status).toBe(200);
    expect(await expectInvariant(typeId)).toEqual({ left: 8, held: 3, sold: 1, total: 12 });
  });

  it('a type created by POST /events/{id}/ticket-types has its stock, and a type with holds is not deleted', async () => {
    const event = await onSale();
    const admin = await adminToken();
    const created = await call('POST', `/api/v2/events/${event.id}/ticket-types`, {
      token: admin,
      body: { name: 'Late', price: 5, total: 600 },
    });
    expect(created.status).toBe(201);
    const typeId = created.body.data.id;
    expect((await findTicketType(typeId))!.stockShards).toBe(6);
    expect(await expectInvariant(typeId)).toEqual({ left: 600, held: 0, sold: 0, total: 600 });
    await reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 1 }] });
    const refused = await call('DELETE', `/api/v2/events/${event.id}/ticket-types/${typeId}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(await expectInvariant(typeId)).toEqual({ left: 599, held: 1, sold: 0, total: 600 });
  });
});
