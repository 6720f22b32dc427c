import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call } from '../support/api.ts';
import { deskSale, taxedEvent } from '../support/desk-sales.ts';
import { addPromoCode } from '../support/promo-codes.ts';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { useStripeStandIn } from '../support/stripe.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `GET /events/{id}/sales` over HTTP: each type's sold tickets and what they brought, from the sums the stock shards
 * keep (shared/selling/domain/sale-figures.ts), equal to the orders' own amounts after a taxed, fee'd, discounted sale,
 * a part's cancel, a portal payment and a whole cancel; another scope's event is 404.
 */
const ORDERS = '/api/v2/orders';
const salesOf = (eventId: number) => `/api/v2/events/${eventId}/sales`;
const { keys, relay } = useStripeStandIn();
let staff: string;

beforeAll(async () => {
  staff = await adminToken(
    ['orders:sell', 'orders:read', 'orders:refund', 'events:read', 'events:write', 'tickets:write'],
    999_671,
  );
});

/** A USD event: a runner with 8.875 % of sales tax added, kids with 10 % included, a 1.50 fee with 10 % tax added. */
const usdEvent = () =>
  taxedEvent({
    currency: 'USD',
    feePerTicket: 1.5,
    feeTax: { name: 'Sales tax', rate: 10, inclusive: false },
    runner: { price: 100, tax: { name: 'Sales tax', rate: 8.875, inclusive: false } },
    kids: { price: 33.33, tax: { name: 'VAT', rate: 10, inclusive: true } },
  });

const sell = async (event: CreatedEvent, quantities: number[], promoCode?: string): Promise<Order> =>
  deskSale(staff, event, quantities, promoCode ? { promoCode } : {});

interface Order {
  id: string;
  amounts: { tickets: number; discount: number; fees: number; shipping: number; tax: number; total: number };
  payment: { paid: number };
  tickets: { id: string; typeId: number; price: number; taxAmount: number }[];
}

const cents = (value: number) => Math.round(value * 100);
const total = (values: number[]) => values.reduce((sum, value) => sum + cents(value), 0) / 100;

async function figures(eventId: number, token = staff) {
  const answer = await call('GET', salesOf(eventId), { token });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data;
}

describe("an event's sales figures", () => {
  it("equal the orders' own amounts after a taxed, fee'd, discounted sale, and lose exactly a part's cancel", async () => {
    const event = await usdEvent();
    const code = await addPromoCode(event.id, { percentOff: 15 }, staff);
    const orders = [await sell(event, [2, 3], code.code), await sell(event, [1, 0])];
    const sums = (pick: (order: Order) => number) => total(orders.map(pick));

    const before = await figures(event.id);
    expect(before.currency).toBe('USD');
    expect(before.totals).toEqual({
      sold: 6,
      gross: sums((order) => order.amounts.total),
      net: total([sums((order) => order.amounts.total), -sums((order) => order.amounts.tax)]),
      tax: sums((order) => order.amounts.tax),
      fees: sums((order) => order.amounts.fees),
      discount: sums((order) => order.amounts.discount),
    });
    expect(before.totals.discount).toBeGreaterThan(0);
    // Each type's figures add up to the totals, and its sold to its tickets.
    const [runner, kids] = before.types;
    expect(runner).toMatchObject({ typeId: event.ticketTypes[0]!.id, name: 'Runner', sold: 3 });
    expect(kids).toMatchObject({ typeId: event.ticketTypes[1]!.id, name: 'Kids', sold: 3 });
    for (const name of ['gross', 'net', 'tax', 'fees', 'discount'] as const)
      expect(total([runner[name], kids[name]]), name).toBe(before.totals[name]);

    // A part's cancel: one runner of the discounted order, refunded at the desk.
    const [cancelled] = orders[0]!.tickets.filter((ticket) => ticket.typeId === event.ticketTypes[0]!.id);
    const part = await call('POST', `${ORDERS}/${orders[0]!.id}/cancel`, {
      token: staff,
      body: { ticketIds: [Number(cancelled!.id)] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(part.status, part.raw).toBe(200);
    const after = await figures(event.id);
    const paid = total(
      await Promise.all(
        orders.map(
          async (order) => (await call('GET', `${ORDERS}/${order.id}`, { token: staff })).body.data.payment.paid,
        ),
      ),
    );
    // What the buyers paid less what was refunded: the orders' payments now.
    expect(after.totals.sold).toBe(5);
    expect(after.totals.gross).toBe(paid);
    expect(after.types[0].sold).toBe(2);
    expect(after.types[1]).toEqual(kids);
    // The cancelled ticket took away its own tax (8.88 or 8.87 of the line's, and its fee's 0.15) and nothing of kids'.
    expect(total([before.totals.tax, -after.totals.tax])).toBe(total([cancelled!.taxAmount, 0.15]));
  });

  it('count a paid portal order once issued and drop to nothing when it is cancelled whole', async () => {
    const { intent, orderId, eventId } = await checkedOut(keys, relay, {
      currency: 'USD',
      price: 100,
      quantity: 2,
      pricing: { tax: { name: 'Sales tax', rate: 8.875, inclusive: false }, bookingFee: { perTicket: 1.5 } },
    });
    expect((await figures(eventId)).totals.sold).toBe(0);
    await payAsBrowser(keys, intent);
    expect((await claimedThenIssued(orderId)).status).toBe('active');
    // 2 × 100 with 17.75 of sales tax added and 3.00 of fee, untaxed.
    expect((await figures(eventId)).totals).toEqual({
      sold: 2,
      gross: 220.75,
      net: 203,
      tax: 17.75,
      fees: 3,
      discount: 0,
    });
    const whole = await call('POST', `${ORDERS}/${orderId}/cancel`, {
      token: staff,
      body: {},
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(whole.status, whole.raw).toBe(200);
    expect((await figures(eventId)).totals).toEqual({ sold: 0, gross: 0, net: 0, tax: 0, fees: 0, discount: 0 });
  });

  it("move by the difference when staff edit a sold ticket's price, its place kept", async () => {
    const event = await usdEvent();
    const [ticket] = (await sell(event, [1, 0])).tickets;
    const before = (await figures(event.id)).totals;
    const edited = await call('PATCH', `/api/v2/tickets/${ticket!.id}`, {
      token: staff,
      body: { data: { price: ticket!.price - 5 } },
    });
    expect(edited.status, edited.raw).toBe(200);
    const after = (await figures(event.id)).totals;
    expect(after).toEqual({ ...before, gross: total([before.gross, -5]), net: total([before.net, -5]) });
  });

  it('follow a ticket transferred to another type: its figures leave one type and join the other, the totals kept', async () => {
    const event = await usdEvent();
    const [ticket] = (await sell(event, [1, 0])).tickets;
    const before = await figures(event.id);
    const moved = await call('POST', `/api/v2/tickets/${ticket!.id}/transfer`, {
      token: staff,
      body: { typeId: event.ticketTypes[1]!.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(moved.status, moved.raw).toBe(200);
    const after = await figures(event.id);
    expect(after.totals).toEqual(before.totals);
    expect(after.types[0]).toMatchObject({ sold: 0, gross: 0, tax: 0, fees: 0, discount: 0 });
    expect(after.types[1]).toMatchObject({ ...before.types[0], typeId: event.ticketTypes[1]!.id, name: 'Kids' });
  });

  it('are 404 for an event outside the caller’s scope, as for a missing one', async () => {
    const event = await usdEvent();
    const scoped = await adminToken(['orders:read'], 999_672, { eventScope: [event.id + 1_000_000] });
    const outside = await call('GET', salesOf(event.id), { token: scoped });
    expect(outside.status).toBe(404);
    const missing = await call('GET', salesOf(event.id + 1_000_000), { token: staff });
    expect(missing.status).toBe(404);
  });
});
