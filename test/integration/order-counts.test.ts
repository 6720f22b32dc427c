import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys } from '#shared/data/keys';
import { ORDER_COUNT_GROUPS, ORDER_COUNT_SHARDS } from '#shared/selling/data/order-count-shards';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import { call, getPage } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { storedItem } from '../support/dynamo-writes.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { adminToken } from '../support/tokens.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so every event's count is this file's.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-order-counts-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/**
 * The staff's order counts, sharded by the order (shared/selling/data/order-count-shards.ts): orders created and cancelled at
 * once in several events, then every `totalCount` of `GET /orders` (each event, a scoped caller's events, every event,
 * by status) exact from the sums, and no shard below zero.
 */
const ORDERS = '/api/v2/orders';
let events: CreatedEvent[];
let orders: Order[];
let cancelled: Order[];

beforeAll(async () => {
  await createOwnTable(table.name);
  // Events in every group of every event's count (the group is the event id's remainder).
  events = await Promise.all(Array.from({ length: ORDER_COUNT_GROUPS + 1 }, () => seedEvent()));
  orders = await Promise.all(
    Array.from({ length: 30 }, (_, n) => {
      const event = events[n % events.length]!;
      return placeOrder(event, unusedCustomerId(), [event.ticketTypes[0]!.id]);
    }),
  );
  cancelled = orders.filter((_, n) => n % 4 === 0);
  const staff = await adminToken(['orders:refund'], 77_010);
  const answers = await Promise.all(
    cancelled.map((order) => call('POST', `${ORDERS}/${order.id}/cancel`, { token: staff, body: {} })),
  );
  for (const answer of answers) expect(answer.status, answer.raw).toBe(200);
}, 120_000);

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe("the staff's order counts, sharded by the order", () => {
  it("every GET /orders totalCount is exact: each event's, a scoped caller's events', every event's, by status", async () => {
    const reader = await adminToken(['orders:read'], 77_011);
    const total = async (query: string, token = reader) => (await getPage(`${ORDERS}?${query}`, token)).totalCount;
    const ofEvent = (event: CreatedEvent, among = orders) => among.filter((order) => order.eventId === event.id).length;
    for (const event of events) {
      expect(await total(`eventId=${event.id}`)).toBe(ofEvent(event));
      expect(await total(`eventId=${event.id}&status=active`)).toBe(ofEvent(event) - ofEvent(event, cancelled));
      expect(await total(`eventId=${event.id}&status=refunded`)).toBe(ofEvent(event, cancelled));
    }
    expect(await total('')).toBe(orders.length);
    expect(await total('status=active')).toBe(orders.length - cancelled.length);
    expect(await total('status=refunded')).toBe(cancelled.length);
    expect(await total('status=pending')).toBe(0);
    const [first, second] = events as [CreatedEvent, CreatedEvent];
    const scoped = await adminToken(['orders:read'], 77_012, { eventScope: [first.id, second.id] });
    expect(await total('', scoped)).toBe(ofEvent(first) + ofEvent(second));
  });

  it("each order's moves land on its own shard of its event's count and of its group's: none below zero, spread", async () => {
    const shardsOf = (key: (shard: number) => { PK: string; SK: string }) =>
      Promise.all(Array.from({ length: ORDER_COUNT_SHARDS }, (_, shard) => storedItem(key(shard))));
    const event = events[0]!;
    const eventShards = await shardsOf((shard) => keys.eventOrderCounts(event.id, shard));
    const groupShards = await shardsOf((shard) => keys.allOrderCounts(event.id % ORDER_COUNT_GROUPS, shard));
    for (const shard of [...eventShards, ...groupShards])
      for (const [name, value] of Object.entries(shard ?? {}))
        if (name === 'n' || name.startsWith('s#')) expect(Number(value), name).toBeGreaterThanOrEqual(0);
    // Each shard holds exactly its own orders (the order id's remainder), created and moved there.
    const mine = orders.filter((order) => order.eventId === event.id);
    eventShards.forEach((shard, n) => {
      expect(Number(shard?.n ?? 0)).toBe(mine.filter((order) => order.id % ORDER_COUNT_SHARDS === n).length);
    });
    expect(eventShards.filter((shard) => shard !== undefined).length).toBeGreaterThan(1);
  });

  it("every event's count is written by each group's own events only: no item takes the sales of every event", async () => {
    for (let group = 0; group < ORDER_COUNT_GROUPS; group++) {
      const shards = await Promise.all(
        Array.from({ length: ORDER_COUNT_SHARDS }, (_, shard) => storedItem(keys.allOrderCounts(group, shard))),
      );
      const counted = shards.reduce((sum, shard) => sum + Number(shard?.n ?? 0), 0);
      const ofGroup = orders.filter((order) => order.eventId % ORDER_COUNT_GROUPS === group);
      expect(ofGroup.length, `group ${group}`).toBeGreaterThan(0);
      expect(counted, `group ${group}`).toBe(ofGroup.length);
    }
  });
});
