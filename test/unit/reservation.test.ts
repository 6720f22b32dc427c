import { describe, expect, it } from 'vitest';
import {
  attendeeTakes,
  unissuedTakes,
  creationShards,
  notOnSale,
  planTakes,
  shippingFor,
  sampleShards,
  spreadStock,
  statesBefore,
  stockShardsFor,
} from '#shared/selling/domain/reservation';
import { checkoutExpiry, heldQuantity, holdCaps } from '#shared/selling/domain/hold-limits';
import { priceSale, ticketPrices } from '#shared/selling/domain/sale-prices';

/** A sale of `lines` (each `[price, quantity]`, type ids from 1) of untaxed types, with no fee. */
const untaxed = (currency: string, shipping: number, ...lines: [number, number][]) =>
  priceSale({
    lines: lines.map(([, quantity], n) => ({ typeId: n + 1, quantity })),
    types: new Map(lines.map(([price], n) => [n + 1, { name: `T${n + 1}`, price }])),
    event: {},
    currency,
    shipping,
  });

const shards = (...left: number[]) => left.map((n, shard) => ({ shard, left: n, held: 0 }));

describe('reservation rules (shared/selling/domain/reservation.ts)', () => {
  it('moves held → checked_out → paid, and either holding state to released or lapsed, never back', () => {
    expect(statesBefore('checked_out')).toEqual(['held']);
    expect(statesBefore('paid')).toEqual(['held', 'checked_out']);
    expect(statesBefore('released')).toEqual(['held', 'checked_out']);
    expect(statesBefore('lapsed')).toEqual(['held', 'checked_out']);
    expect(statesBefore('held')).toEqual([]);
  });

  it('spreads a type over one stock item per 100 tickets, at least 1 and at most 64, the remainder on the first', () => {
    expect([1, 50, 199, 200, 1000, 4000, 6400, 50_000].map(stockShardsFor)).toEqual([1, 1, 1, 2, 10, 40, 64, 64]);
    expect(spreadStock(2003, 8)).toEqual([253, 250, 250, 250, 250, 250, 250, 250]);
    expect(spreadStock(0, 1)).toEqual([0]);
  });

  it('reads a few distinct shards at random, or all of a type with no more', () => {
    const sample = sampleShards(64, 4);
    expect(new Set(sample).size).toBe(4);
    expect(sample.every((shard) => shard >= 0 && shard < 64)).toBe(true);
    expect(sampleShards(64, 4, () => 0)).toEqual([0, 1, 2, 3]);
    expect(sampleShards(3, 4).sort()).toEqual([0, 1, 2]);
  });

  it("shares a creation's room for stock: each type one shard, then one more at a time up to its own count, or none fits", () => {
    expect(creationShards([800, 800], 87)).toEqual([8, 8]);
    expect(creationShards([6400, 6400], 87)).toEqual([44, 43]);
    expect(creationShards([2000, 100, 2000], 7)).toEqual([3, 1, 3]);
    expect(creationShards([2000, 2000, 2000], 3)).toEqual([1, 1, 1]);
    expect(creationShards([2000, 2000, 2000], 2)).toBeUndefined();
    expect(creationShards([], 0)).toEqual([]);
  });

  it('takes a line from one shard holding it all, else from the fullest ones, else not at all', () => {
    expect(planTakes(7, shards(3, 5, 1), 4, () => 0)).toEqual([{ typeId: 7, shard: 1, quantity: 4 }]);
    expect(planTakes(7, shards(3, 5, 1), 2, (n) => n - 1)).toEqual([{ typeId: 7, shard: 1, quantity: 2 }]);
    expect(planTakes(7, shards(3, 2, 1), 5)).toEqual([
      { typeId: 7, shard: 0, quantity: 3 },
      { typeId: 7, shard: 1, quantity: 2 },
    ]);
    expect(planTakes(7, shards(3, 2, 1), 7)).toBeUndefined();
  });

  it('prices shipping per order once, or per ticket with twoPlusCharge after the first, in whole cents', () => {
    expect(shippingFor({ charge: 4.99, twoPlusCharge: 1, chargeType: 'per_order' }, 3, 'GBP')).toBe(4.99);
    expect(shippingFor({ charge: 0.1, twoPlusCharge: 0.2, chargeType: 'per_ticket' }, 3, 'GBP')).toBe(0.5);
    expect(shippingFor(undefined, 3, 'GBP')).toBe(0);
    const pounds = untaxed('GBP', 0.5, [0.1, 3], [19.99, 1]);
    expect(pounds.lines.map((line) => line.amount)).toEqual([0.3, 19.99]);
    const none = { discount: 0, fees: 0, tax: 0 };
    expect(pounds.amounts).toEqual({ tickets: 20.29, shipping: 0.5, total: 20.79, currency: 'GBP', ...none });
    // In the event's own minor units: yen have none, dinars three decimals.
    const yenShipping = shippingFor({ charge: 500, twoPlusCharge: 100, chargeType: 'per_ticket' }, 3, 'JPY');
    expect(untaxed('JPY', yenShipping, [1500, 3]).amounts).toEqual({
      tickets: 4500,
      shipping: 700,
      total: 5200,
      currency: 'JPY',
      ...none,
    });
    expect(untaxed('KWD', 0.5, [1.25, 3]).amounts).toEqual({
      tickets: 3.75,
      shipping: 0.5,
      total: 4.25,
      currency: 'KWD',
      ...none,
    });
  });

  it("splits a taxed line with a fee over its tickets, each ticket's price, tax and fee adding up to the line", () => {
    const sale = priceSale({
      lines: [{ typeId: 1, quantity: 3 }],
      types: new Map([[1, { name: 'Runner', price: 10, tax: { name: 'VAT', rate: 19, inclusive: true } }]]),
      event: { bookingFee: { perTicket: 1 }, feeTax: { name: 'VAT', rate: 19, inclusive: false } },
      currency: 'EUR',
      shipping: 0,
    });
    // 30.00 including 4.79 of VAT; a fee of 3.00 and its 0.57 of VAT added.
    expect(sale.lines[0]).toMatchObject({ fee: 3, tax: 5.36, amount: 33.57, feePaid: 3.57, feeTax: 0.57 });
    expect(sale.amounts).toMatchObject({ tickets: 30, fees: 3, tax: 5.36, total: 33.57 });
    const shares = ticketPrices(sale.lines[0]!, 'EUR');
    // Each also its part of the fee's 0.57 of VAT (inside its bookingFee), and of no discount.
    expect(shares).toEqual([
      { price: 8.4, taxAmount: 1.6, bookingFee: 1.19, discount: 0, feeTax: 0.19 },
      { price: 8.4, taxAmount: 1.6, bookingFee: 1.19, discount: 0, feeTax: 0.19 },
      { price: 8.41, taxAmount: 1.59, bookingFee: 1.19, discount: 0, feeTax: 0.19 },
    ]);
  });

  it('answers a line stored before the pricing (no fee, no tax) as untaxed, its tickets at their unit price', () => {
    const stored = { typeId: 1, name: 'A', quantity: 2, waveTimeId: null, unitPrice: 12.5, amount: 25 };
    expect(ticketPrices(stored as Parameters<typeof ticketPrices>[0], 'EUR')).toEqual([
      { price: 12.5, taxAmount: 0, bookingFee: 0, discount: 0, feeTax: 0 },
      { price: 12.5, taxAmount: 0, bookingFee: 0, discount: 0, feeTax: 0 },
    ]);
  });

  it('is on sale only while published, from onSaleDate and before cutOff', () => {
    const at = new Date('2030-01-01T12:00:00Z');
    const open = { published: true, onSaleDate: null, cutOff: null };
    expect(notOnSale(open, at)).toBeUndefined();
    expect(notOnSale({ ...open, published: false }, at)).toMatch(/not published/);
    expect(notOnSale({ ...open, onSaleDate: '2030-01-01T12:00:01Z' }, at)).toMatch(/open/);
    expect(notOnSale({ ...open, cutOff: '2030-01-01T12:00:00Z' }, at)).toMatch(/closed/);
  });

  it("caps what is held at once by the event's settings, 10 a customer and 40 a network by default", () => {
    expect(holdCaps({})).toEqual({ perCustomer: 10, perNetwork: 40 });
    expect(holdCaps({ maxHeldPerCustomer: 2, maxHeldPerNetwork: 5 })).toEqual({ perCustomer: 2, perNetwork: 5 });
    const takes = [
      { typeId: 1, shard: 0, quantity: 3 },
      { typeId: 1, shard: 4, quantity: 2 },
      { typeId: 2, shard: 0, quantity: 1 },
    ];
    expect(heldQuantity({ takes })).toBe(6);
  });

  it("keeps a checked-out hold 15 minutes from the checkout, never past the event's minutes plus 15 from its creation, never shorter than its own", () => {
    const created = '2030-01-01T10:00:00.000Z';
    const hold = { created, expiresAt: '2030-01-01T10:10:00.000Z' };
    const at = (minutes: number) => new Date(Date.parse(created) + minutes * 60_000);
    const expiry = (minutes: number, reservation = hold, reservationMinutes = 10) =>
      checkoutExpiry(reservation, reservationMinutes, 15, at(minutes)).toISOString();
    expect(expiry(1)).toBe(at(16).toISOString());
    expect(expiry(9.5)).toBe(at(24.5).toISOString());
    // After its own minutes (the lapsing job not yet round), or again later: the bound, 25 minutes from creation.
    expect(expiry(12)).toBe(at(25).toISOString());
    expect(expiry(40)).toBe(at(25).toISOString());
    // A hold already kept later than the bound (its event's minutes lowered since) keeps its own end.
    expect(expiry(1, { created, expiresAt: at(30).toISOString() }, 2)).toBe(at(30).toISOString());
  });
});

describe('the take each attendee is issued from', () => {
  const takes = [
    { typeId: 1, shard: 0, quantity: 1 },
    { typeId: 2, shard: 3, quantity: 1 },
    { typeId: 1, shard: 5, quantity: 2 },
  ];
  const attendees = [{ typeId: 1 }, { typeId: 2 }, { typeId: 1 }, { typeId: 1 }];

  it('gives each attendee, in order, the first take of its type with a place left', () => {
    expect(attendeeTakes(takes, attendees).map((take) => `${take.typeId}#${take.shard}`)).toEqual([
      '1#0',
      '2#3',
      '1#5',
      '1#5',
    ]);
  });

  it('gives back the places of the attendees not issued, merged per shard, whichever positions were issued', () => {
    expect(unissuedTakes(takes, attendees, new Set([0, 1]))).toEqual([{ typeId: 1, shard: 5, quantity: 2 }]);
    expect(unissuedTakes(takes, attendees, new Set([2]))).toEqual([
      { typeId: 1, shard: 0, quantity: 1 },
      { typeId: 2, shard: 3, quantity: 1 },
      { typeId: 1, shard: 5, quantity: 1 },
    ]);
    expect(unissuedTakes(takes, attendees, new Set([0, 1, 2, 3]))).toEqual([]);
  });
});
