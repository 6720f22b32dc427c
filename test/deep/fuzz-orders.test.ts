import fc from 'fast-check';
import { vi } from 'vitest';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
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
        // Published, so a box-office sale (POST /orders) can succeed, sell out and refuse past its stock.
        published: true,
        // Taxed, with a booking fee: the box office's sales and the part cancels' refunds run the pricing.
        bookingFee: { perTicket: 0.5 },
        ticketTypes: [{ name: 'A', price: 10, total: 100, tax: { name: 'VAT', rate: 8.875, inclusive: false } }],
      },
      eventListing,
    );
    const full = { ...event, ticketTypes: event.ticketTypes, waveTimes: [], teams: [], questions: [] };
    const orders = [];
    const typeId = event.ticketTypes[0]!.id;
    // Two tickets each, so a part cancel can leave an order active.
    for (let n = 0; n < 4; n++) orders.push(await placeOrder(full, 8_000_000 + n, [typeId, typeId]));
    const ids = orders.map((order) => order.id);
    // Part cancels the schema's generator would never name: tickets of the orders, of this one or another (a 400).
    const ticketIds = orders.flatMap((order) => order.ticketIds);
    const part = fc.record(
      {
        ticketIds: fc
          .subarray(ticketIds, { minLength: 1, maxLength: 3 })
          .chain((picked) => fc.constantFrom(picked, picked.map(String))),
        force: fc.boolean(),
      },
      { requiredKeys: ['ticketIds'] },
    );
    // Sales the schema's generator would almost never make (one attendee per ticket): some succeed, then sell out.
    const sale = fc.integer({ min: 1, max: 4 }).chain((quantity) =>
      fc.record({
        eventId: fc.constant(event.id),
        lines: fc.constant([{ typeId: event.ticketTypes[0]!.id, quantity }]),
        payment: fc.record(
          { method: fc.constantFrom('cash', 'card_present', 'comp'), reference: fc.string({ minLength: 1 }) },
          { requiredKeys: ['method'] },
        ),
        buyer: fc.record({ emailAddress: fc.constant('fuzz-buyer@test.local'), firstName: fc.string() }),
        attendees: fc.array(
          fc.record({
            firstName: fc.string({ minLength: 1 }),
            lastName: fc.string({ minLength: 1 }),
            email: fc.constantFrom('ada@example.com', 'grace.hopper@example.org'),
          }),
          { minLength: quantity, maxLength: quantity },
        ),
        // A business buyer's billing details, often absent, some bad (blank, too long, an empty object): a 400.
        billing: fc.option(
          fc.record(
            { company: fc.string({ maxLength: 120 }), taxId: fc.string({ maxLength: 24 }), address: fc.string() },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
      }),
    );
    return {
      bodies: {
        'POST /orders': sale,
        'POST /orders/{id}/cancel': fc.oneof(fc.record({ force: fc.boolean() }, { requiredKeys: [] }), part),
      },
      admin,
      known: {
        id: ids,
        eventId: [event.id],
        typeId: [event.ticketTypes[0]!.id],
        customerId: [8_000_000],
        status: ['active', 'cancelled'],
        method: ['cash', 'card_present', 'comp'],
      },
      pathKnown: () => ids,
    };
  },
  // The seeded orders' ids come from the sequence; a cancel (whole or part) that succeeds changes its order, tickets and
  // counts, a
  // sale its new order, tickets, stock and counts; a refused sale writes nothing (its id is taken once its stock is).
  meantWrites: [],
});
