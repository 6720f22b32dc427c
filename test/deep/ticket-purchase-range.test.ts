import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { MAX_LIST_READ } from '#shared/lists/older-ticket-list';
import { shardOf, STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call, idsOf } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * GET /ticket with `eventId` and a purchase range, at 3,000 tickets bought over months (in
 * orders of a few at one instant, some a replacement keeping an earlier time): `totalCount`
 * is exact for any range, a page at any `_offset` holds the tickets a recount puts there,
 * reading about the same at 2,500 as at 100, and sales, deletes and transfers keep it so.
 */
const LIST = '/api/v2/ticket';
const TICKETS = 3_000;
const LIMIT = 25;

let token: string;
let event: CreatedEvent;
/** The event's live tickets as a recount sees them: purchase time and id. */
let live: { id: number; bought: string }[];
/** The first seeded ticket's id (the seed allocates them in order). */
let firstId: number;
/** When the first ticket, deleted, was bought: three live tickets share its instant. */
let deletedFirstBought: string;

/** A registration rush: these tickets are bought 50 ms apart, more than MAX_LIST_READ of them in one minute. */
const RUSH = { from: 1_800, to: 2_900 };

/**
 * Seeded ticket n's purchase time: orders of one to four tickets at one instant, seconds to
 * days apart, the rush within one minute; every 97th a replacement keeping a time 500
 * tickets earlier.
 */
function purchaseTimes(count: number): string[] {
  const gaps = [400, 20_000, 7 * 60_000, 3 * 3_600_000, 31 * 3_600_000];
  const times: string[] = [];
  let at = Date.parse('2026-01-31T22:58:00.000Z');
  for (let n = 0; n < count; n++) {
    if (n === RUSH.from) at = Math.ceil(at / 60_000) * 60_000 + 60_000;
    else if (n > RUSH.from && n < RUSH.to) at += 50;
    else if (n % 4 === 0 || n % 7 === 0) at += gaps[(n * 7919) % gaps.length]!;
    times.push(new Date(at).toISOString());
  }
  return times.map((time, n) => (n % 97 === 96 && n >= 500 ? times[n - 500]! : time));
}

const inPurchaseOrder = (tickets: { id: number; bought: string }[]) =>
  [...tickets].sort((a, b) => (a.bought < b.bought ? -1 : a.bought > b.bought ? 1 : a.id - b.id));
const within = (from?: string, to?: string) =>
  inPurchaseOrder(live.filter(({ bought }) => (!from || bought >= from) && (!to || bought <= to))).map(({ id }) => id);
const page = (query: string) => boundedGet(`${LIST}?eventId=${event.id}&${query}`, token);

beforeAll(async () => {
  token = await adminToken(['tickets:read', 'tickets:write'], 717_301);
  event = await seedEvent({
    title: 'Purchase ranges',
    ticketTypes: [
      { name: 'Run', price: 30, total: 10_000 },
      { name: 'Relay', price: 40, total: 10 },
    ],
  });
  const typeId = event.ticketTypes[0]!.id;
  const times = purchaseTimes(TICKETS);
  const records = await writeTickets(event, TICKETS, (n) => ({ typeId, purchasedDate: times[n]! }));
  live = records.map((record) => ({ id: record.id, bought: record.purchasedDate }));
  firstId = records[0]!.id;
  // Live changes through the API and the sale path: three deletes (one of an order sharing an instant), a transfer to
  // another type (a new ticket bought when the original was; the original stays listed, transferred), two sales now.
  const gone = [records[0]!, records[1_201]!, records[2_998]!];
  deletedFirstBought = records[0]!.purchasedDate;
  for (const ticket of gone) expect((await call('DELETE', `/api/v2/tickets/${ticket.id}`, { token })).status).toBe(204);
  const original = records[1_500]!;
  const moved = await call('POST', `/api/v2/tickets/${original.id}/transfer`, {
    token,
    body: { typeId: event.ticketTypes[1]!.id, attendee: { partyMember: 'Nadia' } },
  });
  expect(moved.status).toBe(200);
  expect(moved.body.data.id).not.toBe(original.id);
  expect(moved.body.data.purchasedDate).toBe(original.purchasedDate);
  const sold = await seedTickets(event, typeId, 2);
  const removed = new Set(gone.map((ticket) => ticket.id));
  live = [
    ...live.filter(({ id }) => !removed.has(id)),
    { id: moved.body.data.id, bought: original.purchasedDate },
    ...sold.map((ticket) => ({ id: ticket.id, bought: ticket.purchasedDate })),
  ];
}, 180_000);

describe('GET /ticket?eventId&purchasedFrom/purchasedTo: exact totals and any offset from the purchase counts', () => {
  it('totalCount is exact, not flagged, for ranges open or closed, on and off minute boundaries, dates alone, and empty ones', async () => {
    const times = inPurchaseOrder(live).map(({ bought }) => bought);
    const mid = times[1_400]!;
    const ranges: [string | undefined, string | undefined][] = [
      [mid, undefined],
      [undefined, mid],
      ['2026-03-01T00:00:00.000Z', '2026-03-31T23:59:59.999Z'],
      [`${mid.slice(0, 17)}00.000Z`, `${times[2_100]!.slice(0, 16)}:59.999Z`],
      // Inside one minute, from a ticket's instant to another's (both ends inclusive).
      [times[700]!, times[703]!],
      [times[701]!, times[701]!],
      ['2020-01-01T00:00:00.000Z', '2020-12-31T23:59:59.999Z'],
      [times.at(-1)!, undefined],
      // From inside the second of a deleted ticket, just after it: its list entry may lag (the stream's consumer takes
      // it out), so the second's tickets before the bound are counted as the list serves them, live ones only.
      [justAfterMs(deletedFirstBought, 1), undefined],
      [undefined, justAfterMs(deletedFirstBought, 1)],
      // The last instant the API takes: every ticket is bought by then.
      ['2026-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'],
    ];
    for (const [from, to] of ranges) {
      const query = [from && `purchasedFrom=${from}`, to && `purchasedTo=${to}`].filter(Boolean).join('&');
      const want = within(from, to);
      const { body } = await page(`${query}&_limit=${LIMIT}`);
      expect(body.totalCount, query).toBe(want.length);
      expect(body.totalCountIsEstimate, query).toBeUndefined();
      expect(idsOf(body.data), query).toEqual(want.slice(0, LIMIT));
    }
    // Dates alone are whole UTC days.
    const day = mid.slice(0, 10);
    const { body } = await page(`purchasedFrom=${day}&purchasedTo=${day}`);
    expect(body.totalCount).toBe(within(`${day}T00:00:00.000Z`, `${day}T23:59:59.999Z`).length);
    expect(body.totalCount).toBeGreaterThan(0);
  });

  it('any _offset answers what a recount puts there, reading about what a page at 100 reads, also inside the rush; past the end an empty page', async () => {
    const from = '2026-02-01T00:00:30.000Z';
    const want = within(from);
    expect(want.length).toBeGreaterThan(2_900);
    const rushMinute = Math.max(...countsPer(16).values());
    expect(rushMinute).toBeGreaterThan(MAX_LIST_READ);
    const reads: number[] = [];
    for (const offset of [1, 100, 999, 1_000, 1_777, 2_222, 2_500, want.length - LIMIT, want.length - 1]) {
      const { body, reads: read } = await page(`purchasedFrom=${from}&_offset=${offset}&_limit=${LIMIT}`);
      expect(idsOf(body.data), `${offset}`).toEqual(want.slice(offset, offset + LIMIT));
      expect(body.totalCount).toBe(want.length);
      expect(body.next === null, `${offset}`).toBe(offset + LIMIT >= want.length);
      reads.push(read.itemsRead);
    }
    // Month counts, three days' hour counts, three minutes' counts (each bucket's in every shard holding a ticket of
    // it), the bound's second, the position's second and the page: never what precedes it, nor the rest of the rush's
    // minute.
    const busiest = Math.max(...countsPer(19).values());
    const months = shardedBuckets(7).size;
    const dayHours = Math.max(...[...shardedBuckets(13).keys()].reduce(perDay, new Map<string, number>()).values());
    const minute = Math.min(STATS_SHARDS, Math.max(...countsPer(16).values()));
    const bound = months + 3 * dayHours + 3 * minute + busiest + (busiest + LIMIT + 1) + LIMIT;
    for (const read of reads) expect(read).toBeLessThanOrEqual(bound);
    // Still a fraction of what a page may read (the shards' count items are most of it: up to 16 a bucket).
    expect(bound).toBeLessThan(MAX_LIST_READ / 2);
    const past = await page(`purchasedFrom=${from}&_offset=${want.length + 5}&_limit=${LIMIT}`);
    expect(past.body).toMatchObject({ data: [], totalCount: want.length, next: null });
  });

  it('random ranges (bounds at, just off and between purchase times) and random offsets answer what a recount says', async () => {
    const times = inPurchaseOrder(live).map(({ bought }) => bought);
    const next = (below: number) => randomInt(below);
    const near = () => justAfterMs(times[next(times.length)]!, [0, 0, -1, 1, -999, 1_000, 61_000][next(7)]!);
    for (let round = 0; round < 30; round++) {
      const [a, b] = [near(), near()].sort();
      // Either bound open, not both (that is the event's id-ordered list).
      const to = next(5) ? b : undefined;
      const from = next(5) || to === undefined ? a : undefined;
      const want = within(from, to);
      const offset = next(Math.max(1, want.length + 10));
      const query = [from && `purchasedFrom=${from}`, to && `purchasedTo=${to}`, `_offset=${offset}`, '_limit=7']
        .filter(Boolean)
        .join('&');
      const { body } = await page(query);
      expect(body.totalCount, query).toBe(want.length);
      expect(idsOf(body.data), query).toEqual(want.slice(offset, offset + 7));
    }
  });

  it('a range bounded inside the rush, off any second, counts and pages exactly', async () => {
    const rush = inPurchaseOrder(live).filter(({ id }) => id >= firstId + RUSH.from && id < firstId + RUSH.to);
    const [from, to] = [justAfterMs(rush[300]!.bought, 25), justAfterMs(rush[800]!.bought, 25)];
    const want = within(from, to);
    const { body } = await page(`purchasedFrom=${from}&purchasedTo=${to}&_offset=250&_limit=${LIMIT}`);
    expect(body.totalCount).toBe(want.length);
    expect(idsOf(body.data)).toEqual(want.slice(250, 250 + LIMIT));
  });

  it('a closed range pages to its end and no further, by _offset and by next, each ticket once, the total exact on every page', async () => {
    const times = inPurchaseOrder(live).map(({ bought }) => bought);
    const [from, to] = [times[600]!, times[1_333]!];
    const want = within(from, to);
    const range = `purchasedFrom=${from}&purchasedTo=${to}&_limit=100`;
    const byOffset: number[] = [];
    for (let offset = 0; offset < want.length; offset += 100)
      byOffset.push(...idsOf((await page(`${range}&_offset=${offset}`)).body.data));
    expect(byOffset).toEqual(want);
    const byNext: number[] = [];
    let next: string | null = null;
    do {
      const { body } = await page(`${range}${next ? `&_cursor=${encodeURIComponent(next)}` : ''}`);
      expect(body.totalCount).toBe(want.length);
      expect(body.totalCountIsEstimate).toBeUndefined();
      byNext.push(...idsOf(body.data));
      next = body.next;
    } while (next);
    expect(byNext).toEqual(want);
  });
});

/** Live tickets per purchase-time prefix of this length (16: per minute, 19: per second). */
function countsPer(length: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { bought } of live) counts.set(bought.slice(0, length), (counts.get(bought.slice(0, length)) ?? 0) + 1);
  return counts;
}

/** The purchase counts' items of this prefix length (7: months, 13: hours) the live tickets fill: a bucket's in each ticket's shard. */
function shardedBuckets(length: number): Map<string, number> {
  const items = new Map<string, number>();
  for (const { id, bought } of live) items.set(`${bought.slice(0, length)}#${shardOf(id)}`, 1);
  return items;
}

/** Adds an hour's count item (`<yyyy-mm-ddThh>#<shard>`) to its day's. */
const perDay = (days: Map<string, number>, item: string) =>
  days.set(item.slice(0, 10), (days.get(item.slice(0, 10)) ?? 0) + 1);

/** `ms` milliseconds after an instant. */
const justAfterMs = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();
