import { vi } from 'vitest';
import { createEvent } from '#shared/data/events';
import { eventListing } from '#shared/lists/portal';
import { routes } from '#shared/routes';
import { placeOrder } from '../support/factories/orders.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-orders-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

fuzzFile({
  title: 'orders',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/orders')),
  async seed() {
    const admin = await fuzzAdministrator('orders');
    const event = await createEvent(
      {
        title: 'Fuzz orders',
        timezone: 'Europe/London',
        startsAt: '2400-01-01T09:00:00Z',
        currency: 'EUR',
        ticketTypes: [{ name: 'A', price: 10, total: 100 }],
      },
      eventListing,
    );
    const full = { ...event, ticketTypes: event.ticketTypes, waveTimes: [], teams: [], questions: [] };
    const orders = [];
    for (let n = 0; n < 4; n++) orders.push(await placeOrder(full, 8_000_000 + n, [event.ticketTypes[0]!.id]));
    const ids = orders.map((order) => order.id);
    return {
      admin,
      known: { id: ids, eventId: [event.id], customerId: [8_000_000], status: ['active', 'cancelled'] },
      pathKnown: () => ids,
    };
  },
  // The seeded orders' ids come from the sequence; a cancel that succeeds changes its order, tickets and counts.
  meantWrites: [],
});
