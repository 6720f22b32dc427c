import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { findTicketType } from '#shared/events/data/events';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call, getPage, idsOf } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { newAddress } from '../support/mail.ts';
import { addPromoCode, expectNeverPastMaxUses, promoCheckout, uniqueCode, usesOf } from '../support/promo-codes.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Promo codes at the box office and on orders, over HTTP: a desk sale priced and refused as a hold is, its use taken
 * in the sale's own transaction (never past `maxUses` however many desks sell at once) and given back by a failed
 * sale's undo (the sweep's: stuck-orders.test.ts); the order's `promoCode` on the staff's and the portal's answers; `GET /orders?promoCode=`.
 */
const ORDERS = '/api/v2/orders';
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:sell', 'orders:read', 'events:read', 'events:write'], 999_466);
});
afterEach(() => clearFaults());

const onSale = () =>
  seedEvent({
    published: true,
    questions: [],
    ticketTypes: [
      { name: 'Runner', price: 25.5, total: 100 },
      { name: 'Kids', price: 10, total: 100 },
    ],
  });

async function stockOf(typeId: number) {
  const shards = await readStock((await findTicketType(typeId))!);
  const sum = (field: 'left' | 'held' | 'sold') => shards.reduce((total, shard) => total + shard[field], 0);
  return { left: sum('left'), held: sum('held'), sold: sum('sold') };
}

function saleOf(event: CreatedEvent, quantity: number, overrides: Record<string, unknown> = {}) {
  return {
    eventId: event.id,
    lines: [{ typeId: event.ticketTypes[0]!.id, quantity }],
    payment: { method: 'cash' },
    buyer: { emailAddress: newAddress('buyer'), firstName: 'Grace', lastName: 'Hopper' },
    attendees: Array.from({ length: quantity }, (_, n) => ({ firstName: `Ada${n}`, lastName: 'L', email: 'a@b.co' })),
    ...overrides,
  };
}

const sell = (body: unknown) => call('POST', ORDERS, { token: staff, body });

describe('a box-office sale with a promo code', () => {
  it('is priced with its discount, names the code on the order, and takes one use in its transaction', async () => {
    const event = await onSale();
    const code = await addPromoCode(event.id, { percentOff: 20, maxUses: 5 }, staff);
    const plain = await countWrites(() => sell(saleOf(event, 2)));
    const coded = await countWrites(() => sell(saleOf(event, 2, { promoCode: code.code.toLowerCase() })));
    expect(coded.result.status, coded.result.raw).toBe(201);
    const order = coded.result.body.data;
    // 2 × 25.50 less 20 %: 10.20 off.
    expect(order).toMatchObject({
      status: 'active',
      grandTotal: 40.8,
      promoCode: code.code,
      amounts: { tickets: 51, discount: 10.2, total: 40.8 },
      payment: { paid: 40.8 },
    });
    expect(plain.result.body.data.promoCode).toBeUndefined();
    expect((await call('GET', `${ORDERS}/${order.id}`, { token: staff })).body.data).toEqual(order);
    expect(await usesOf(code)).toBe(1);
    // The use is its shard's update in the sale's first transaction: 2 write units; the entry's code costs none more.
    const units = (writes: typeof coded.writes, key: RegExp) =>
      writes.items.filter((write) => key.test(write.key)).map((write) => write.units);
    expect(units(coded.writes, new RegExp(`^PROMO_USES#${code.id}#`)), describeWrites(coded.writes)).toEqual([2]);
    expect(units(coded.writes, / ORDER_LISTS$/)).toEqual(units(plain.writes, / ORDER_LISTS$/));
  });

  it('is refused with the hold’s reasons, writing nothing; a comp sale takes no code', async () => {
    const event = await onSale();
    const [runner, kids] = event.ticketTypes.map((type) => type.id) as [number, number];
    const kidsOnly = await addPromoCode(event.id, { percentOff: 5, typeIds: [kids] }, staff);
    const once = await addPromoCode(event.id, { amountOff: 5, maxUses: 1 }, staff);
    const expired = await addPromoCode(
      event.id,
      { percentOff: 5, validUntil: new Date(Date.now() - 60_000).toISOString() },
      staff,
    );
    expect((await sell(saleOf(event, 1, { promoCode: once.code }))).status).toBe(201);
    const cases: [string, string][] = [
      ['NO-SUCH-CODE', 'promo_code_invalid'],
      [expired.code, 'promo_code_invalid'],
      [kidsOnly.code, 'promo_code_not_applicable'],
      [once.code, 'promo_code_used_up'],
    ];
    for (const [promoCode, reason] of cases) {
      const { result, writes } = await countWrites(() => sell(saleOf(event, 1, { promoCode })));
      expect(result.status, promoCode).toBe(409);
      expect(result.body, promoCode).toMatchObject({ reason, promoCode });
      expect(writes.items, describeWrites(writes)).toEqual([]);
    }
    const comp = await sell(saleOf(event, 1, { promoCode: kidsOnly.code, payment: { method: 'comp' } }));
    expect(comp.status).toBe(400);
    expect(comp.raw).toContain('body.promoCode');
    expect(await stockOf(runner)).toEqual({ left: 99, held: 0, sold: 1 });
    expect(await usesOf(once)).toBe(1);
    expect(await usesOf(kidsOnly)).toBe(0);
  });

  it('never uses a code more than maxUses when 12 desks sell at once against its 4 uses', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const code = await addPromoCode(event.id, { percentOff: 50, maxUses: 4 }, staff);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => sell(saleOf(event, 1, { promoCode: code.code }))),
    );
    await expectNeverPastMaxUses(answers, code, 4);
    expect(await stockOf(typeId)).toEqual({ left: 96, held: 0, sold: 4 });
  });

  it('gives its use back when the sale fails half-way and is undone', async () => {
    const event = await onSale();
    const code = await addPromoCode(event.id, { amountOff: 5, maxUses: 1 }, staff);
    failCalls(db, {
      commands: ['TransactWriteItemsCommand'],
      when: (input) => JSON.stringify(input).includes('"#issued":"issuedTickets"'),
      error: failures.dynamoInternal,
    });
    const failed = await sell(saleOf(event, 2, { promoCode: code.code }));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await clearFaults();
    const expired = await getPage(`${ORDERS}?eventId=${event.id}&status=expired`, staff);
    expect(expired.data.map((order: { promoCode?: string }) => order.promoCode)).toEqual([code.code]);
    expect(await usesOf(code)).toBe(0);
    expect(await stockOf(event.ticketTypes[0]!.id)).toEqual({ left: 100, held: 0, sold: 0 });
    expect((await sell(saleOf(event, 1, { promoCode: code.code }))).status).toBe(201);
  });
});

describe('an order’s promo code', () => {
  it('is answered on the portal’s and the staff’s order from its reservation at checkout', async () => {
    const event = await onSale();
    const code = await addPromoCode(event.id, { percentOff: 100 }, staff);
    const { token, checkout } = await promoCheckout(event.id, event.ticketTypes[1]!.id, code.code);
    const orderId = checkout.body.data.order.id;
    const mine = await call('GET', '/api/v2/my-account/orders', { token });
    expect(mine.body.data.find((order: { id: string }) => order.id === orderId)).toMatchObject({
      promoCode: code.code,
    });
    expect((await call('GET', `${ORDERS}/${orderId}`, { token: staff })).body.data.promoCode).toBe(code.code);
  });
});

describe('GET /orders?promoCode=', () => {
  it('lists the orders priced with a code, whatever its case, in every list the filters name', async () => {
    const [event, other] = [await onSale(), await onSale()];
    const text = uniqueCode();
    const code = await addPromoCode(event.id, { code: text, percentOff: 10 }, staff);
    const otherCode = await addPromoCode(other.id, { code: text.toLowerCase(), percentOff: 10 }, staff);
    const customer = await newCustomer();
    const ids = async (body: unknown) => Number((await sell(body)).body.data.id);
    const first = await ids(saleOf(event, 1, { promoCode: code.code }));
    await ids(saleOf(event, 1));
    const mine = await ids(saleOf(event, 1, { promoCode: text.toLowerCase(), customerId: customer.id }));
    const elsewhere = await ids(saleOf(other, 1, { promoCode: otherCode.code }));
    await ids(saleOf(event, 1, { promoCode: (await addPromoCode(event.id, { percentOff: 5 }, staff)).code }));

    const page = await getPage(`${ORDERS}?eventId=${event.id}&promoCode=${text.toLowerCase()}`, staff);
    expect(idsOf(page)).toEqual([mine, first]);
    expect(page.totalCount).toBe(2);
    expect(page).not.toHaveProperty('totalCountIsEstimate');
    // The status lists hold the orders themselves: judged on their code alike.
    expect(idsOf(await getPage(`${ORDERS}?eventId=${event.id}&status=active&promoCode=${text}`, staff))).toEqual([
      mine,
      first,
    ]);
    expect(idsOf(await getPage(`${ORDERS}?customerId=${customer.id}&promoCode=${text}`, staff))).toEqual([mine]);
    // Every event's orders: each event's code of that text.
    const scoped = await adminToken(['orders:read'], 999_467, { eventScope: [event.id, other.id] });
    expect(idsOf(await getPage(`${ORDERS}?promoCode=${text}`, scoped))).toEqual([elsewhere, mine, first]);
    const limited = await call('GET', `${ORDERS}?eventId=${event.id}&promoCode=${text}&_limit=1`, { token: staff });
    expect(limited.body).toMatchObject({ count: 1 });
    const next = await getPage(
      `${ORDERS}?eventId=${event.id}&promoCode=${text}&_limit=1&_cursor=${limited.body.next}`,
      staff,
    );
    expect(idsOf(next)).toEqual([first]);
    const disputed = await call('GET', `${ORDERS}?dispute=open&promoCode=${text}`, { token: staff });
    expect(disputed.status).toBe(400);
    expect((await call('GET', `${ORDERS}?promoCode=`, { token: staff })).status).toBe(400);
  });
});
