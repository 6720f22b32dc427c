import { beforeAll, describe, expect, it } from 'vitest';
import { allocateIds } from '#shared/data/counters';
import { commitNewOrder } from '#shared/selling/data/orders';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import { PORTAL_OFFSET_WINDOW, PORTAL_READ_BUDGET } from '#shared/portal/domain/portal-lists';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, idsOf, type Page } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * `GET /my-account/orders` of a customer with more than 1,000 orders (a team captain): every
 * order reachable by `next`, newest first, with the event, type and purchase-date filters;
 * exact totals from the kept counts; `_offset` past the first 1,000 a 400 naming `_cursor`;
 * each page's reads bounded. The customer is this file's own, so nothing depends on other files.
 */
const BASE = '/api/v2/my-account';
const COUNT = 1_100;
const START = Date.UTC(2031, 0, 1);

let buyer: number;
let token: string;
let events: [CreatedEvent, CreatedEvent];
/** The orders newest first. */
let newestFirst: Order[];

beforeAll(async () => {
  buyer = unusedCustomerId();
  token = await customerToken(buyer);
  events = [
    await seedEvent({ ticketTypes: [{ name: 'Club', price: 5, total: 5000 }], teams: [] }),
    await seedEvent({
      published: true,
      ticketTypes: [
        { name: 'Day', price: 9, total: 5000 },
        { name: 'Night', price: 12, total: 5000 },
      ],
      teams: [],
    }),
  ];
  const firstId = await allocateIds('ORDER', COUNT);
  const orders: Order[] = Array.from({ length: COUNT }, (_, n) => {
    const event = events[n % 2]!;
    // Every 5th order of the second event holds its Night type.
    const typeId = event.ticketTypes[n % 10 === 1 ? 1 : 0]!.id;
    // Pairs share a purchase instant: the id orders them.
    const at = new Date(START + Math.floor(n / 2) * 60_000).toISOString();
    return {
      id: firstId + n,
      customerId: buyer,
      eventId: event.id,
      created: at,
      purchasedDate: at,
      status: 'active',
      emailAddress: `captain-${buyer}@example.test`,
      purchaser: 'Team Captain',
      affiliate: null,
      grandTotal: 5,
      ticketIds: [],
      typeIds: [typeId],
      waveTimeId: null,
      teamId: null,
      transactions: [],
      answers: [],
    } as Order;
  });
  // Through the data layer, 40 orders' transactions at a time.
  for (let start = 0; start < COUNT; start += 40)
    await Promise.all(
      orders
        .slice(start, start + 40)
        .map((order) => commitNewOrder(order, events.find((e) => e.id === order.eventId)!)),
    );
  newestFirst = [...orders].sort((a, b) => b.purchasedDate.localeCompare(a.purchasedDate) || b.id - a.id);
}, 300_000);

async function walk(query: string, limit = 100): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null | undefined;
  do {
    const suffix = cursor ? `&_cursor=${encodeURIComponent(cursor)}` : '';
    const { body, reads } = await boundedGet(`${BASE}/orders?_limit=${limit}${query}${suffix}`, token);
    expect(reads.itemsRead).toBeLessThanOrEqual(PORTAL_READ_BUDGET + 2 * limit + 20);
    pages.push(body);
    cursor = body.next;
  } while (cursor);
  return pages;
}
const ids = (pages: Page[]) => pages.flatMap((page) => idsOf(page));

describe('GET /my-account/orders at any number of orders', () => {
  it('walks all 1,100 orders by next, newest first, every page with the exact total from the kept counts', async () => {
    const pages = await walk('');
    expect(ids(pages)).toEqual(newestFirst.map((order) => order.id));
    for (const page of pages) {
      expect(page.totalCount).toBe(COUNT);
      expect(page.totalCountIsEstimate).toBeUndefined();
    }
    // The default page reads its 26 list entries, their 26 orders (one batch read) and the counts, not the customer's
    // 1,100 orders.
    const { reads } = await boundedGet(`${BASE}/orders`, token);
    expect(reads.itemsRead).toBeLessThanOrEqual(2 * 26 + 4);
  }, 120_000);

  it('pages by _offset within the first 1,000 and answers a 400 naming _cursor past them', async () => {
    const { body } = await boundedGet(`${BASE}/orders?_offset=${PORTAL_OFFSET_WINDOW - 50}&_limit=50`, token);
    expect(idsOf(body)).toEqual(newestFirst.slice(PORTAL_OFFSET_WINDOW - 50, PORTAL_OFFSET_WINDOW).map((o) => o.id));
    const past = await call('GET', `${BASE}/orders?_offset=${PORTAL_OFFSET_WINDOW}&_limit=1`, { token });
    expect(past.status).toBe(400);
    expect(past.body.detail).toContain('_cursor');
    expect(past.body.errors[0].path).toBe('query._offset');
    // From that page's `next` the walk goes on to the last order.
    const rest = await walk(`&_cursor=${encodeURIComponent(body.next)}`);
    expect(ids(rest).slice(0, 3)).toEqual(
      newestFirst.slice(PORTAL_OFFSET_WINDOW, PORTAL_OFFSET_WINDOW + 3).map((o) => o.id),
    );
  }, 120_000);

  it('filters by event, type and purchase date past the first 1,000, with includeTickets, includeTrans and includeAnswers', async () => {
    const second = events[1];
    const ofSecond = newestFirst.filter((order) => order.eventId === second.id);
    const byEvent = await walk(`&event=${events[0].id},${second.id}&includeTickets=true&includeTrans=true`);
    expect(ids(byEvent)).toEqual(newestFirst.map((order) => order.id));
    expect(byEvent[0]!.totalCount).toBe(COUNT);
    expect(byEvent[0]!.data[0]).toHaveProperty('tickets');
    const night = second.ticketTypes[1]!.id;
    const nights = await walk(`&ticketType=${night}&includeAnswers=true`, 25);
    expect(ids(nights)).toEqual(ofSecond.filter((order) => order.typeIds.includes(night)).map((order) => order.id));
    expect(nights[0]!.totalCount).toBe(COUNT / 10);
    // The oldest 1,050 orders by purchase date (a range's total is not kept: flagged until a read reaches its end).
    const to = newestFirst.at(50)!.purchasedDate;
    const ranged = await walk(`&toPurchaseDate=${encodeURIComponent(to)}`);
    expect(ids(ranged)).toEqual(newestFirst.filter((order) => order.purchasedDate <= to).map((order) => order.id));
    expect(ranged[0]!.totalCountIsEstimate).toBe(true);
    expect(ranged.at(-1)!.next).toBeNull();
  }, 120_000);
});
