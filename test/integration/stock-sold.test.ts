import { describe, expect, it } from 'vitest';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { listOrderTickets } from '../support/stored-records.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * A type's `sold` is kept on its stock shards, never on its item (shared/data/README.md "Stock"): with holds, box-office
 * sales, ticket deletions, transfers between types and order cancellations all running at once, each type's shards
 * still sum to its total, their `sold` is the tickets holding a place, and the API's `sold` is that sum.
 */

const sum = (shards: readonly { left: number; held: number; sold: number }[], part: 'left' | 'held' | 'sold') =>
  shards.reduce((total, shard) => total + shard[part], 0);

async function stockOf(event: CreatedEvent, typeId: number) {
  const type = event.ticketTypes.find((one) => one.id === typeId)!;
  const shards = await readStock(type);
  return { left: sum(shards, 'left'), held: sum(shards, 'held'), sold: sum(shards, 'sold'), total: type.total };
}

const boxOfficeSale = (token: string, event: CreatedEvent, typeId: number, n: number) =>
  call('POST', '/api/v2/orders', {
    token,
    body: {
      eventId: event.id,
      lines: [{ typeId, quantity: 1 }],
      payment: { method: 'cash' },
      buyer: { emailAddress: `desk-${n}@test.local` },
      attendees: [{ firstName: `Ada${n}`, lastName: 'Lovelace', email: `ada${n}@example.com` }],
    },
  });

const hold = async (event: CreatedEvent, typeId: number) =>
  call('POST', '/api/v2/my-account/reservations', {
    token: await customerToken(unusedCustomerId()),
    body: { eventId: event.id, lines: [{ typeId, quantity: 2 }] },
  });

describe("a type's sold on its stock shards", () => {
  it('keeps sum(left + held + sold) = total per type through concurrent holds, sales, deletions, transfers and cancellations', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [
        { name: 'Runner', price: 20, total: 600 },
        { name: 'Elite', price: 50, total: 300 },
      ],
    });
    const [runner, elite] = event.ticketTypes.map((type) => type.id) as [number, number];
    expect(event.ticketTypes.map((type) => type.stockShards)).toEqual([6, 3]);
    const admin = await adminToken();
    const orders = await Promise.all(
      Array.from({ length: 6 }, () => placeOrder(event, unusedCustomerId(), [runner, runner])),
    );
    const tickets = (await Promise.all(orders.map((order) => listOrderTickets(order.id)))).flat();
    expect(await stockOf(event, runner)).toEqual({ left: 588, held: 0, sold: 12, total: 600 });

    // Orders 0–1 lose their tickets one by one, 2–3 see theirs moved to Elite, 4–5 are cancelled whole.
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, n) => hold(event, n % 2 ? runner : elite)),
      ...Array.from({ length: 6 }, (_, n) => boxOfficeSale(admin, event, n % 2 ? runner : elite, n)),
      ...tickets.slice(0, 4).map((ticket) => call('DELETE', `/api/v2/tickets/${ticket.id}`, { token: admin })),
      ...tickets
        .slice(4, 8)
        .map((ticket) =>
          call('POST', `/api/v2/tickets/${ticket.id}/transfer`, { token: admin, body: { typeId: elite } }),
        ),
      ...orders.slice(4).map((order) => call('POST', `/api/v2/orders/${order.id}/cancel`, { token: admin, body: {} })),
    ]);
    expect(
      answers.filter((answer) => answer.status >= 300).map((answer) => answer.raw),
      'every request succeeded',
    ).toEqual([]);

    // Runner: 12 sold, 4 deleted, 4 transferred away, 4 cancelled, 3 sold at the desk; 6 holds of 2.
    expect(await stockOf(event, runner)).toEqual({ left: 585, held: 12, sold: 3, total: 600 });
    // Elite: 4 transferred in, 3 sold at the desk; 6 holds of 2.
    expect(await stockOf(event, elite)).toEqual({ left: 281, held: 12, sold: 7, total: 300 });
    const read = await call('GET', `/api/v2/events/${event.id}`, { token: admin });
    expect(read.body.data.ticketTypes.map(({ id, sold }: { id: number; sold: number }) => ({ id, sold }))).toEqual([
      { id: runner, sold: 3 },
      { id: elite, sold: 7 },
    ]);

    // The type's rules read the shards' sum: not below what is sold and held, not deleted with tickets sold.
    const below = await call('PATCH', `/api/v2/events/${event.id}/ticket-types/${elite}`, {
      token: admin,
      body: { total: 18, version: read.body.data.version },
    });
    expect(below.status, below.raw).toBe(409);
    expect(below.body).toMatchObject({ reason: 'total_below_sold', sold: 7, held: 12 });
    const deleted = await call('DELETE', `/api/v2/events/${event.id}/ticket-types/${elite}`, { token: admin });
    expect(deleted.status, deleted.raw).toBe(409);
    expect(await stockOf(event, elite)).toEqual({ left: 281, held: 12, sold: 7, total: 300 });
  });
});
