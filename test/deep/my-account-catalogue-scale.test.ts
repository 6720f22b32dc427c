import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import type { CreatedEvent, NewEvent } from '#shared/events/domain/event';
import { PORTAL_OFFSET_WINDOW, PORTAL_READ_BUDGET } from '#shared/portal/domain/portal-lists';
import { placeOrder } from '../support/factories/orders.ts';
import { organisedEvents, SEED_ORGANISER } from '../../bin/seed/organised-events.ts';
import { call, getPage, idsOf, type Page } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * `GET /my-account/event` past the old 500-event read: more than 1,000 published events of
 * this file's own (a start window of its own far in the future, titles with a word of its
 * own), walked by `next`, paged by `_offset` within the first 1,000, filtered by title and
 * search past the first 1,000, each page's DynamoDB reads bounded. Other files' events share
 * the published index, so every assertion is scoped to this file's window or words.
 */
const BASE = '/api/v2/my-account';
const DAY = 86_400;
const COUNT = 1_050;
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(0, 26))).join('');
/** Words no other file's event holds: the title's and the venue's. */
const TAG = `Zk${letters(8)}`;
const VENUE_WORD = `qv${letters(8)}`;
const FROM = Date.UTC(2500, 0, 1) / 1000 + randomInt(0, 1_000_000) * DAY;
const TO = FROM + 40 * DAY;
const WINDOW = `fromEventStart=${FROM}&toEventStart=${TO}`;

/** What the assertions read of an event. */
type Listed = Pick<CreatedEvent, 'id' | 'title' | 'startsAt' | 'venue'>;
/** This file's published events. */
let made: Listed[];
let hidden: CreatedEvent[];
/** This file's events the customer can see in the window, in start order: the published ones and their two unpublished ones. */
let expected: number[];
let customer: number;
let token: string;

const byStart = (a: Listed, b: Listed) => a.startsAt.localeCompare(b.startsAt) || a.id - b.id;

/** Every page from the first by `next`, each answered 200 with bounded reads; answers the pages. */
async function walk(query: string, limit = 100): Promise<Page<{ id: string; start: string }>[]> {
  const pages: Page<{ id: string; start: string }>[] = [];
  let cursor: string | null | undefined;
  do {
    const suffix = cursor ? `&_cursor=${encodeURIComponent(cursor)}` : '';
    const { body, reads } = await boundedGet(`${BASE}/event?${query}&_limit=${limit}${suffix}`, token);
    // A page reads its page and one more per partition, or at most the budget when a text filter thins the read.
    expect(reads.itemsRead).toBeLessThanOrEqual(PORTAL_READ_BUDGET + 2 * limit + 20);
    pages.push(body);
    cursor = body.next;
  } while (cursor);
  return pages;
}

const allIds = (pages: { data: { id: string }[] }[]) => pages.flatMap((page) => idsOf(page));

beforeAll(async () => {
  customer = unusedCustomerId();
  token = await customerToken(customer);
  const input = (n: number, published: boolean): NewEvent => ({
    title: `${TAG} Run ${n}`,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    // Pairs of events share a start instant: the id orders them.
    startsAt: new Date((FROM + DAY + Math.floor(n / 2) * 1800) * 1000).toISOString(),
    venue: n % 3 === 0 ? `${VENUE_WORD} Arena` : 'Town Hall',
    description: `Race number ${n} of the season.`,
    published,
    ticketTypes: [{ name: 'Entry', price: 10, total: 10 }],
    teams: [],
  });
  // As the seeds make events: POST /events' and the publication's use cases, their transactions batch-written.
  const inputs = Array.from({ length: COUNT }, (_, n) => input(n, true));
  const ids = await organisedEvents(SEED_ORGANISER, inputs);
  made = inputs.map(({ title, startsAt, venue }, i) => ({ id: ids[i]!, title, startsAt, venue: venue! }));
  hidden = await Promise.all([
    createEvent(input(COUNT, false), eventListing),
    createEvent(input(COUNT + 1, false), eventListing),
  ]);
  for (const event of hidden) await placeOrder(event, customer, [event.ticketTypes[0]!.id]);
  expected = [...made, ...hidden].sort(byStart).map((event) => event.id);
}, 300_000);

describe('GET /my-account/event at any number of events', () => {
  it('answers the default query 200 with an exact total, and its walk by next holds every event in start order', async () => {
    const pages = await walk('');
    expect(pages[0]!.totalCountIsEstimate).toBeUndefined();
    expect(pages[0]!.totalCount).toBeGreaterThanOrEqual(expected.length);
    const ids = allIds(pages);
    expect(new Set(ids).size).toBe(ids.length);
    // This file's events, in the order the walk met them, are exactly its expected order.
    const mine = new Set(expected);
    expect(ids.filter((id) => mine.has(id))).toEqual(expected);
    const starts = pages.flatMap((page) => page.data.map((entry) => Date.parse(entry.start)));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  }, 120_000);

  it('walks a start window by next completely, and pages it by _offset within the first 1,000; past them a 400 names _cursor', async () => {
    const pages = await walk(WINDOW);
    expect(allIds(pages)).toEqual(expected);
    expect(pages.at(-1)!.next).toBeNull();
    const deep = await getPage(`${BASE}/event?${WINDOW}&_offset=${PORTAL_OFFSET_WINDOW - 100}&_limit=100`, token);
    expect(idsOf(deep)).toEqual(expected.slice(PORTAL_OFFSET_WINDOW - 100, PORTAL_OFFSET_WINDOW));
    expect(deep).toMatchObject({ totalCountIsEstimate: true });
    const past = await call('GET', `${BASE}/event?${WINDOW}&_offset=${PORTAL_OFFSET_WINDOW - 99}&_limit=100`, {
      token,
    });
    expect(past.status).toBe(400);
    expect(past.body.detail).toContain('_cursor');
    expect(past.body.errors[0].path).toBe('query._offset');
    // The cursor walk goes on from the deep page to the end.
    const rest = allIds(await walkFrom(`${WINDOW}&_cursor=${encodeURIComponent(deep.next!)}`));
    expect(rest).toEqual(expected.slice(PORTAL_OFFSET_WINDOW));
  }, 120_000);

  it('filters by title, exact and with a wildcard, past the first 1,000 matches', async () => {
    // Every one of this file's events the customer can see: the published ones and their two unpublished ones.
    expect(allIds(await walk(`title=${encodeURIComponent(`${TAG} Run %`)}`))).toEqual(expected);
    const last = made.find((event) => event.title === `${TAG} Run ${COUNT - 1}`)!;
    const exact = await getPage(`${BASE}/event?title=${encodeURIComponent(last.title)}`, token);
    expect(idsOf(exact)).toEqual([last.id]);
    expect(exact.totalCount).toBe(1);
    expect(exact.totalCountIsEstimate).toBeUndefined();
  }, 120_000);

  it('searches the venue past the first 1,000 events, reading only the entries of its word', async () => {
    const atVenue = [...made, ...hidden]
      .filter((event) => event.venue.startsWith(VENUE_WORD))
      .sort(byStart)
      .map((event) => event.id);
    const pages = await walk(`search=${VENUE_WORD}`, 50);
    expect(allIds(pages)).toEqual(atVenue);
    // The last of them starts after the 1,000th event of the window.
    expect(expected.indexOf(atVenue.at(-1)!)).toBeGreaterThan(PORTAL_OFFSET_WINDOW);
    const { reads } = await boundedGet(`${BASE}/event?search=${VENUE_WORD}&_limit=25`, token);
    // 26 entries, the count's items and the page's events and sold counts (each event's STATS_SHARDS statistics
    // shards): nothing like the 1,050 events.
    expect(reads.itemsRead).toBeLessThan(26 + 25 * (1 + STATS_SHARDS) + 30);
  }, 120_000);

  it('lists the customer’s linked events with return=orders, and refuses an unknown cursor', async () => {
    const linked = await getPage(`${BASE}/event?return=orders&${WINDOW}`, token);
    expect(idsOf(linked)).toEqual(expected.filter((id) => !made.some((event) => event.id === id)));
    const bad = await call('GET', `${BASE}/event?_cursor=not-a-cursor`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('query._cursor');
  });
});

/** A walk that starts from a cursor already in the query. */
async function walkFrom(query: string): Promise<Page<{ id: string; start: string }>[]> {
  const pages: Page<{ id: string; start: string }>[] = [];
  let next: string | null = null;
  let current = query;
  do {
    const { body } = await boundedGet(`${BASE}/event?${current}&_limit=100`, token);
    pages.push(body);
    next = body.next;
    current = `${WINDOW}&_cursor=${encodeURIComponent(next ?? '')}`;
  } while (next);
  return pages;
}
