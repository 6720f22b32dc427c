import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EventEntryResource, TicketTypeEntryResource } from '#shared/portal/contract/my-account';
import { WaveTimeResource } from '#shared/portal/contract/my-account';
import type { CreatedEvent, NewEvent } from '#shared/events/domain/event';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call, getPage, idsOf } from '../support/api.ts';
import { SYSTEM } from '../support/tickets.ts';
import { customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * The portal's catalogue: which events a customer sees (published ones, and those they
 * hold an order for), the filters, paging, the entry's fields, and the access rule of an
 * event's ticket types and wave times. Published events of every test share one index
 * partition, so each test lists its own start window (or its own unique titles).
 */
const BASE = '/api/v2/my-account';
const DAY = 86_400;

/** A window of ten days, far in the future and unique to the test. */
function newWindow() {
  const from = Date.UTC(2300, 0, 1) / 1000 + randomInt(0, 2_000_000) * DAY;
  return {
    from,
    to: from + 10 * DAY,
    at: (day: number, hour = 9) => new Date((from + day * DAY + hour * 3600) * 1000).toISOString(),
  };
}

const event = (overrides: Partial<NewEvent>) => seedEvent({ title: `Portal ${randomUUID()}`, ...overrides });

const list = async (customerId: number, query: string) =>
  getPage<{ id: string; title: string }>(`${BASE}/event?${query}`, await customerToken(customerId));

describe('GET /my-account/event', () => {
  it('lists published events and the unpublished ones the customer holds an order for, and nothing else', async () => {
    const w = newWindow();
    const [customer, other] = [unusedCustomerId(), unusedCustomerId()];
    const published = await event({ startsAt: w.at(1), published: true });
    const hidden = await event({ startsAt: w.at(2) });
    const hiddenUnlinked = await event({ startsAt: w.at(3) });
    await placeOrder(hidden, customer, [hidden.ticketTypes[0]!.id]);

    const range = `fromEventStart=${w.from}&toEventStart=${w.to}`;
    expect(idsOf(await list(customer, range))).toEqual([published.id, hidden.id]);
    expect(idsOf(await list(other, range))).toEqual([published.id]);
    expect(idsOf(await list(customer, range))).not.toContain(hiddenUnlinked.id);
  });

  it("answers every field of the spec's entry, as strings where the spec says string, with inventory from the kept counts", async () => {
    const shown = await event({
      startsAt: '2300-07-01T08:00:00Z', // BST: +01:00
      timezone: 'Europe/London',
      published: true,
      publishedDate: '2300-01-02T10:00:00Z',
      onSaleDate: '2300-01-03T00:00:00Z',
      venue: 'Riverside Park',
      shortDescription: 'A run by the river',
      category: 'Running',
      ordering: 7,
      location: 'London',
      sefUrl: 'river-run',
      smallPic: 'https://img.test/small.png',
      hideTime: true,
      ticketTypes: [
        { name: 'GA', price: 20, total: 30 },
        { name: 'VIP', price: 50, total: 5 },
      ],
    });
    const tickets = await seedTickets(shown, shown.ticketTypes[0]!.id, 3);
    await seedTickets(shown, shown.ticketTypes[1]!.id, 1);
    await changeTicketStates(tickets[0]!.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);

    const page = await list(unusedCustomerId(), `title=${encodeURIComponent(shown.title)}`);
    expect(page.data).toHaveLength(1);
    expect(EventEntryResource.safeParse(page.data[0]).error?.issues).toBeUndefined();
    expect(page.data[0]).toEqual({
      id: String(shown.id),
      title: shown.title,
      start: '2300-07-01T09:00:00+01:00',
      venue: 'Riverside Park',
      cutOff: '',
      onSaleDate: String(Date.UTC(2300, 0, 3) / 1000),
      publishedDate: '2300-01-02T10:00:00.000Z',
      published: '1',
      hideDate: '0',
      hideTime: '1',
      smallPic: 'https://img.test/small.png',
      largePic: '',
      shortDescription: 'A run by the river',
      category: 'Running',
      ordering: '7',
      location: 'London',
      sefUrl: 'river-run',
      timezone: 'Europe/London',
      // 4 sold, 1 cancelled: 3 hold a place; capacity is the sum of the types' totals.
      inventory: { sold: 3, total: 35 },
    });
  });

  it('matches title exactly and case-sensitively, with % as a wildcard', async () => {
    const tag = randomUUID().slice(0, 8);
    const city = await event({ title: `City ${tag} Marathon`, published: true });
    const cityHalf = await event({ title: `City ${tag} Half`, published: true });
    await event({ title: `Town ${tag} Marathon`, published: true });
    const customer = unusedCustomerId();

    expect(idsOf(await list(customer, `title=${encodeURIComponent(`City ${tag} Marathon`)}`))).toEqual([city.id]);
    expect(idsOf(await list(customer, `title=${encodeURIComponent(`city ${tag} marathon`)}`))).toEqual([]);
    expect(idsOf(await list(customer, `title=${encodeURIComponent(`City ${tag}`)}`))).toEqual([]);
    expect(idsOf(await list(customer, `title=${encodeURIComponent(`City ${tag}%`)}`)).sort()).toEqual(
      [city.id, cityHalf.id].sort(),
    );
    expect(idsOf(await list(customer, `title=${encodeURIComponent(`%${tag} Marathon`)}`))).toHaveLength(2);
  });

  it('answers wildcard-heavy patterns against a 200-character title (no backtracking), and refuses more than 10 wildcards', async () => {
    const w = newWindow();
    const long = await event({
      title: 'a'.repeat(200),
      description: 'a'.repeat(2000),
      startsAt: w.at(1),
      published: true,
    });
    const customer = unusedCustomerId();
    const range = `fromEventStart=${w.from}&toEventStart=${w.to}`;
    // These ran for tens of seconds as a regular expression; each is a plain answer now.
    for (const pattern of [`${'%a'.repeat(10)}b`, `${'a%'.repeat(10)}b`, `%${'a'.repeat(90)}b`]) {
      expect(idsOf(await list(customer, `title=${encodeURIComponent(pattern)}&${range}`))).toEqual([]);
      expect(idsOf(await list(customer, `search=${encodeURIComponent(pattern.slice(0, 100))}&${range}`))).toEqual([]);
    }
    expect(idsOf(await list(customer, `title=${encodeURIComponent('%a'.repeat(10))}&${range}`))).toEqual([long.id]);
    const refused = await call('GET', `${BASE}/event?search=${encodeURIComponent('%a'.repeat(11))}`, {
      token: await customerToken(customer),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('at most 10 % wildcards');
  });

  it('searches title, description, venue and venue address, ignoring case', async () => {
    const w = newWindow();
    const word = `Zq${randomUUID().slice(0, 6)}`;
    const inTitle = await event({ title: `The ${word} run`, startsAt: w.at(1), published: true });
    const inDescription = await event({
      description: `Along the ${word.toUpperCase()} canal`,
      startsAt: w.at(2),
      published: true,
    });
    const inVenue = await event({ venue: `${word.toLowerCase()} stadium`, startsAt: w.at(3), published: true });
    const inAddress = await event({ venueAddress: `1 ${word} Road`, startsAt: w.at(4), published: true });
    await event({ shortDescription: word, startsAt: w.at(5), published: true }); // not a searched field
    const page = await list(
      unusedCustomerId(),
      `search=${word.toLowerCase()}&fromEventStart=${w.from}&toEventStart=${w.to}`,
    );
    expect(idsOf(page)).toEqual([inTitle.id, inDescription.id, inVenue.id, inAddress.id]);
    expect(page.totalCount).toBe(4);
  });

  it('bounds by start time (inclusive), where false means unbounded', async () => {
    const w = newWindow();
    const [a, b, c] = [
      await event({ startsAt: w.at(1), published: true }),
      await event({ startsAt: w.at(2), published: true }),
      await event({ startsAt: w.at(3), published: true }),
    ];
    const customer = unusedCustomerId();
    const startOf = (day: number) => Date.parse(w.at(day)) / 1000;
    expect(idsOf(await list(customer, `fromEventStart=${startOf(2)}&toEventStart=${w.to}`))).toEqual([b.id, c.id]);
    expect(idsOf(await list(customer, `fromEventStart=${w.from}&toEventStart=${startOf(2)}`))).toEqual([a.id, b.id]);
    expect(idsOf(await list(customer, `fromEventStart=${startOf(2)}&toEventStart=${startOf(2)}`))).toEqual([b.id]);
    const open = await list(customer, `fromEventStart=${startOf(3)}&toEventStart=false&_limit=100`);
    expect(idsOf(open)[0]).toBe(c.id);
  });

  it('with return=orders lists only the events the customer holds an order for, published or not', async () => {
    const w = newWindow();
    const customer = unusedCustomerId();
    const bought = await event({ startsAt: w.at(1), published: true });
    await event({ startsAt: w.at(2), published: true });
    const hiddenBought = await event({ startsAt: w.at(3) });
    await placeOrder(bought, customer, [bought.ticketTypes[0]!.id]);
    await placeOrder(hiddenBought, customer, [hiddenBought.ticketTypes[0]!.id]);
    await placeOrder(hiddenBought, customer, [hiddenBought.ticketTypes[1]!.id]);
    expect(idsOf(await list(customer, `return=orders&fromEventStart=${w.from}&toEventStart=${w.to}`))).toEqual([
      bought.id,
      hiddenBought.id,
    ]);
    expect(idsOf(await list(customer, 'return=orders')).sort()).toEqual([bought.id, hiddenBought.id].sort());
  });

  it('combines the filters', async () => {
    const w = newWindow();
    const customer = unusedCustomerId();
    const tag = randomUUID().slice(0, 8);
    const hit = await event({ title: `Trail ${tag} A`, venue: 'Forest Lodge', startsAt: w.at(2) });
    await placeOrder(hit, customer, [hit.ticketTypes[0]!.id]);
    await event({ title: `Trail ${tag} B`, venue: 'Forest Lodge', startsAt: w.at(3), published: true }); // no order
    await event({ title: `Trail ${tag} C`, venue: 'Harbour', startsAt: w.at(2), published: true }); // venue
    const early = await event({ title: `Trail ${tag} D`, venue: 'Forest Lodge', startsAt: w.at(0) }); // before the range
    await placeOrder(early, customer, [early.ticketTypes[0]!.id]);
    const page = await list(
      customer,
      `title=${encodeURIComponent(`Trail ${tag}%`)}&search=forest&return=orders&fromEventStart=${w.from + DAY}&toEventStart=${w.to}`,
    );
    expect(idsOf(page)).toEqual([hit.id]);
  });

  it('pages by start then id without overlap, with the total of matches', async () => {
    const w = newWindow();
    const made: CreatedEvent[] = [];
    for (const day of [3, 1, 2, 1, 4]) made.push(await event({ startsAt: w.at(day), published: true }));
    const expected = [...made].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id - b.id).map((e) => e.id);
    const customer = unusedCustomerId();
    const range = `fromEventStart=${w.from}&toEventStart=${w.to}`;
    const first = await list(customer, `${range}&_limit=2`);
    const second = await list(customer, `${range}&_limit=2&_offset=2`);
    const third = await list(customer, `${range}&_limit=2&_offset=4`);
    // A window's total is not kept: the matches read so far, flagged, until a page's read reaches the window's end.
    expect(first).toMatchObject({ totalCount: 3, totalCountIsEstimate: true, count: 2, limit: 2, offset: 0 });
    expect(third).toMatchObject({ totalCount: 5, count: 1, offset: 4, next: null });
    expect(third).not.toHaveProperty('totalCountIsEstimate');
    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)]).toEqual(expected);
  });

  it('refuses bad bounds and values with a 400 naming the parameter', async () => {
    const token = await customerToken(unusedCustomerId());
    const problem = async (query: string) => {
      const response = await call('GET', `${BASE}/event?${query}`, { token });
      expect(response.status, response.raw).toBe(400);
      return response.body.errors.map((error: { path: string }) => error.path);
    };
    expect(await problem('fromEventStart=yesterday')).toContain('query.fromEventStart');
    expect(await problem('toEventStart=-5')).toContain('query.toEventStart');
    expect(await problem('fromEventStart=99999999999999')).toContain('query.fromEventStart');
    expect(await problem('fromEventStart=2000&toEventStart=1000')).toContain('query.fromEventStart');
    expect(await problem('return=some')).toContain('query.return');
    expect(await problem(`search=${'x'.repeat(101)}`)).toContain('query.search');
    expect(await problem('_limit=101')).toContain('query._limit');
  });
});

describe('GET /my-account/ticket-type/{eventId} and /my-account/wave-time/{eventId}', () => {
  const hiddenWithWaves = () =>
    event({
      ticketTypes: [
        { name: 'Late', price: 30, total: 10, ordering: 2, description: 'After 10:00' },
        {
          name: 'Early',
          price: 25,
          total: 10,
          ordering: 1,
          description: 'Before 10:00',
          tax: { name: 'Sales tax', rate: 8.875, inclusive: false },
        },
        { name: 'Also early', price: 28, total: 10, ordering: 1 },
      ],
      timezone: 'America/New_York',
      currency: 'USD',
      // 1.00 a ticket and 10 % of its price, with 10 % of tax added on it: shown per type before the hold.
      bookingFee: { perTicket: 1, percent: 10 },
      feeTax: { name: 'Sales tax', rate: 10, inclusive: false },
      waveTimes: [
        { name: 'Wave B', startTime: '2300-05-01T14:30:00Z', capacity: 200 },
        { name: 'Wave A', startTime: '2300-05-01T14:00:00Z', capacity: 100 },
      ],
    });

  it("answers an accessible event's types by ordering then id, and its waves by start time in the event's offset", async () => {
    const shown = await hiddenWithWaves();
    const customer = unusedCustomerId();
    await placeOrder(shown, customer, [shown.ticketTypes[0]!.id]);
    const token = await customerToken(customer);

    const types = await call('GET', `${BASE}/ticket-type/${shown.id}`, { token });
    expect(types.status, types.raw).toBe(200);
    const [late, early, alsoEarly] = shown.ticketTypes;
    expect(types.body).toMatchObject({ totalCount: 3, count: 3, limit: 25, offset: 0 });
    expect(types.body.data).toEqual([
      {
        id: String(early!.id),
        name: 'Early',
        description: 'Before 10:00',
        ordering: 1,
        price: 25,
        // Added at the hold: the buyer sees it before holding.
        tax: { name: 'Sales tax', rate: 8.875, inclusive: false },
        available: 10,
        bookingFee: 3.85,
      },
      {
        id: String(alsoEarly!.id),
        name: 'Also early',
        description: '',
        ordering: 1,
        price: 28,
        tax: null,
        available: 10,
        bookingFee: 4.18,
      },
      {
        id: String(late!.id),
        name: 'Late',
        description: 'After 10:00',
        ordering: 2,
        price: 30,
        tax: null,
        available: 9,
        bookingFee: 4.4,
      },
    ]);
    for (const entry of types.body.data) expect(TicketTypeEntryResource.safeParse(entry).success).toBe(true);
    expect(
      (await call('GET', `${BASE}/ticket-type/${shown.id}?_limit=1&_offset=1`, { token })).body.data.map(
        (t: { name: string }) => t.name,
      ),
    ).toEqual(['Also early']);

    const waves = await call('GET', `${BASE}/wave-time/${shown.id}`, { token });
    expect(waves.status, waves.raw).toBe(200);
    expect(waves.body).toEqual({
      count: 2,
      data: [
        {
          id: shown.waveTimes[1]!.id,
          eventId: shown.id,
          name: 'Wave A',
          startTime: '2300-05-01T10:00:00-04:00',
          capacity: 100,
        },
        {
          id: shown.waveTimes[0]!.id,
          eventId: shown.id,
          name: 'Wave B',
          startTime: '2300-05-01T10:30:00-04:00',
          capacity: 200,
        },
      ],
    });
    for (const entry of waves.body.data) expect(WaveTimeResource.safeParse(entry).success).toBe(true);
  });

  it('answers a published event to any customer', async () => {
    const shown = await event({ published: true });
    const token = await customerToken(unusedCustomerId());
    expect((await call('GET', `${BASE}/ticket-type/${shown.id}`, { token })).body.totalCount).toBe(2);
    expect((await call('GET', `${BASE}/wave-time/${shown.id}`, { token })).body).toEqual({ count: 0, data: [] });
  });

  it('answers 404 for an unpublished event the customer holds no order for, and for an unknown one', async () => {
    const hidden = await hiddenWithWaves();
    await placeOrder(hidden, unusedCustomerId(), [hidden.ticketTypes[0]!.id]); // someone else's order
    const token = await customerToken(unusedCustomerId());
    for (const path of [`ticket-type/${hidden.id}`, `wave-time/${hidden.id}`]) {
      const response = await call('GET', `${BASE}/${path}`, { token });
      expect(response.status).toBe(404);
      expect(response.body.detail).toBe(`Event ${hidden.id} not found.`);
    }
    expect((await call('GET', `${BASE}/ticket-type/999999999`, { token })).status).toBe(404);
    expect((await call('GET', `${BASE}/wave-time/abc`, { token })).status).toBe(400);
  });
});
