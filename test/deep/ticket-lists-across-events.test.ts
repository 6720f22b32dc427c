import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { PERMISSIONS } from '#shared/auth/permissions';
import { ALL_EVENTS_POSITION_SHARDS } from '#shared/lists/list-positions';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, idsOf } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { stateOf, writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { INDEX_SHARDS } from '#shared/data/keys';

// A table of this file's own (before anything reads TABLE_NAME): the list across events lists every ticket in it,
// so other files' tickets written meanwhile would move its totals.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-across-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/**
 * `/tickets` and `/ticket` without an event filter page over every event
 * the caller may see, newest first: every ticket exactly once by `_offset` and by `next`,
 * exact totals, any page from the kept positions of the all-events list.
 */
const LIMIT = 50;

let token: string;
let events: CreatedEvent[];
let records: TicketRecord[];

beforeAll(async () => {
  await createOwnTable(table.name);
  token = await adminToken();
  events = [];
  for (const title of ['Spring run', 'Summer ride', 'Autumn swim']) {
    events.push(
      await seedEvent({
        title,
        ticketTypes: [
          { name: 'Entry', price: 20, total: 5_000 },
          { name: 'Child', price: 5, total: 5_000 },
        ],
        teams: [{ name: 'Club' }],
      }),
    );
  }
  const [spring, summer, autumn] = events as [CreatedEvent, CreatedEvent, CreatedEvent];
  // A few attendees share a rare last name across the events; one has an accented one and an address to find.
  const shape = (event: CreatedEvent) => (n: number) => ({
    typeId: event.ticketTypes[n % 3 === 0 ? 1 : 0]!.id,
    processState: stateOf(n),
    ...(n % 97 === 5 ? { partyMemberLastName: 'Okonkwo' } : {}),
    ...(event === events[2] && n === 77
      ? { partyMemberLastName: 'Zélie-Marchand', emailAddress: 'zm.swims@example.test' }
      : {}),
    ...(event === events[2] && n === 78 ? { emailAddress: 'zm.swimsuit@example.test' } : {}),
  });
  // Interleaved, so that newest first mixes the events.
  records = [
    ...(await writeTickets(spring, 150, shape(spring))),
    ...(await writeTickets(summer, 250, shape(summer))),
    ...(await writeTickets(spring, 150, shape(spring))),
    ...(await writeTickets(autumn, 120, shape(autumn))),
  ];
}, 120_000);

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

const newestFirst = (matches: TicketRecord[]) => idsOf([...matches].sort((a, b) => b.id - a.id));

const get = (path: string, as = token) => boundedGet(`/api/v2${path}`, as);

/** Pages until a short page (or `next` is null), as a client that knows nothing else would. */
async function walk(base: string, by: 'offset' | 'cursor', as = token): Promise<number[]> {
  const join = base.includes('?') ? '&' : '?';
  const seen: number[] = [];
  let query = `${base}${join}_limit=${LIMIT}`;
  for (let pages = 0; pages < 50; pages++) {
    const { body } = await get(query, as);
    seen.push(...idsOf(body.data));
    if (by === 'offset' ? body.count < LIMIT : body.next === null) return seen;
    query = `${base}${join}_limit=${LIMIT}&${by === 'offset' ? `_offset=${seen.length}` : `_cursor=${body.next}`}`;
  }
  throw new Error(`${base}: more than 50 pages`);
}

describe('GET /tickets without an event filter', () => {
  it('pages over every event newest first, each ticket exactly once by _offset and by next, with the exact total', async () => {
    const expected = newestFirst(records);
    expect(await walk('/tickets', 'offset')).toEqual(expected);
    expect(await walk('/tickets', 'cursor')).toEqual(expected);
    const first = await get(`/tickets?_limit=${LIMIT}`);
    expect(first.body.totalCount).toBe(records.length);
    expect(first.body.totalCountIsEstimate).toBeUndefined();
    // The all-events totals (one batch read of an item per shard), the page's entries (the list's write shards each
    // asked its share, rounded up, in up to three rounds: shared/lists/ticket-list-shards.ts) and their batch read.
    const slack = 3 * INDEX_SHARDS.allTickets;
    expect(first.reads.itemsRead).toBeLessThanOrEqual(ALL_EVENTS_POSITION_SHARDS + LIMIT + 1 + slack + LIMIT);
  });

  it('jumps to any page from the kept positions: _offset=400 answers what the walk holds there, reading about a page', async () => {
    const expected = newestFirst(records);
    const jump = await get(`/tickets?_offset=400&_limit=${LIMIT}`);
    expect(idsOf(jump.body.data)).toEqual(expected.slice(400, 400 + LIMIT));
    // Totals, the position blocks (a few in each shard, read in step), fewer than a block of entries skipped, the
    // page's batch read.
    const shards = ALL_EVENTS_POSITION_SHARDS;
    expect(jump.reads.itemsRead).toBeLessThanOrEqual(shards + shards * 10 + 200 + LIMIT + 1 + LIMIT);
    const last = await get(`/tickets?_offset=${records.length - 7}&_limit=${LIMIT}`);
    expect(idsOf(last.body.data)).toEqual(expected.slice(-7));
    expect(last.body.next).toBeNull();
    expect((await get(`/tickets?_offset=${records.length}`)).body.data).toEqual([]);
  });

  it('excludes process states exactly, and a type alone lists its own event', async () => {
    const active = records.filter((record) => record.processState !== PROCESS_STATE.cancelled);
    const page = await get(`/tickets?exclude_process_states=4&_limit=${LIMIT}&_offset=100`);
    expect(page.body.totalCount).toBe(active.length);
    expect(idsOf(page.body.data)).toEqual(newestFirst(active).slice(100, 100 + LIMIT));
    expect(await walk('/tickets?exclude_process_states=4', 'cursor')).toEqual(newestFirst(active));

    const child = events[1]!.ticketTypes[1]!.id;
    const ofType = records.filter((record) => record.typeId === child).sort((a, b) => a.id - b.id);
    const typed = await get(`/tickets?ticket_types=${child}&_limit=${LIMIT}`);
    expect(typed.body.totalCount).toBe(ofType.length);
    expect(idsOf(typed.body.data)).toEqual(idsOf(ofType).slice(0, LIMIT));
  });

  it("refuses teams without their events (a team is one event's), naming the field", async () => {
    const response = await call('GET', `/api/v2/tickets?teams=${events[0]!.teams[0]!.id}`, { token });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain('query.teams');
  });

  it('an event-scoped administrator pages over their events only, newest first, exact', async () => {
    const [spring, , autumn] = events as [CreatedEvent, CreatedEvent, CreatedEvent];
    const scoped = await adminToken(PERMISSIONS, 999_301, { eventScope: [spring.id, autumn.id] });
    const theirs = records.filter((record) => record.eventId === spring.id || record.eventId === autumn.id);
    expect(await walk('/tickets', 'offset', scoped)).toEqual(newestFirst(theirs));
    expect(await walk('/tickets', 'cursor', scoped)).toEqual(newestFirst(theirs));
    expect((await get('/tickets', scoped)).body.totalCount).toBe(theirs.length);
  });

  it('a deleted ticket leaves the list and its total; a new one heads it', async () => {
    const gone = records[200]!;
    expect((await call('DELETE', `/api/v2/tickets/${gone.id}`, { token })).status).toBe(204);
    records = records.filter((record) => record.id !== gone.id);
    const [fresh] = await writeTickets(events[2]!, 1, () => ({ typeId: events[2]!.ticketTypes[0]!.id }));
    records.push(fresh!);
    // The table has no stream: the deletion's list entries and positions are the consumer's to take away.
    await listsCaughtUp([gone, fresh!]);
    const first = await get(`/tickets?_limit=${LIMIT}`);
    expect(first.body.totalCount).toBe(records.length);
    expect(first.body.data[0].id).toBe(fresh!.id);
    expect(await walk('/tickets', 'offset')).toEqual(newestFirst(records));
  });
});

describe('GET /ticket without a filter', () => {
  it('pages over every event newest first, by _offset and by next, with the exact total', async () => {
    const expected = newestFirst(records);
    expect(await walk('/ticket', 'offset')).toEqual(expected);
    expect(await walk('/ticket', 'cursor')).toEqual(expected);
    expect((await get('/ticket')).body.totalCount).toBe(records.length);
  });
});

describe('GET /ticket?search= alone: across the events the caller may see', () => {
  const search = (term: string, as = token) => get(`/ticket?search=${encodeURIComponent(term)}&_limit=${LIMIT}`, as);
  const byId = (matches: TicketRecord[]) => idsOf([...matches].sort((a, b) => a.id - b.id));

  it('finds every holder of a name in every event, reading about what it finds', async () => {
    const holders = records.filter((record) => record.partyMemberLastName === 'Okonkwo');
    expect(new Set(holders.map((record) => record.eventId)).size).toBe(3);
    const found = await search('OKONK');
    expect(idsOf(found.body.data)).toEqual(byId(holders));
    expect(found.body.totalCount).toBe(holders.length);
    // The word's entries (one Query), the holders' tickets (one batch).
    expect(found.reads.itemsRead).toBeLessThanOrEqual(2 * holders.length + 2);
    const accented = records.find((record) => record.emailAddress === 'zm.swims@example.test')!;
    expect(idsOf((await search('zelie')).body.data)).toEqual([accented.id]);
    expect(idsOf((await search('marchand')).body.data)).toEqual([accented.id]);
    const suit = records.find((record) => record.emailAddress === 'zm.swimsuit@example.test')!;
    expect(idsOf((await search('zm.sw')).body.data)).toEqual([accented.id, suit.id]);
    // Up to the @ an address is one whole local part: exactly its entries are read.
    const exact = await search('zm.swims@');
    expect(idsOf(exact.body.data)).toEqual([accented.id]);
    expect(exact.reads.itemsRead).toBeLessThanOrEqual(2);
    expect((await search('nobody')).body.data).toEqual([]);
  });

  it('finds a ticket by its id, a one-digit one too', async () => {
    const some = records[321]!;
    expect(idsOf((await search(String(some.id))).body.data)).toContain(some.id);
    const seven = records.find((record) => record.id === 7);
    expect(seven).toBeDefined();
    expect(idsOf((await search('7')).body.data)).toEqual([7]);
  });

  it('a word every ticket holds pages through all of them exactly once by next', async () => {
    const seen = await walk('/ticket?search=runner', 'cursor');
    expect([...seen].sort((a, b) => a - b)).toEqual(byId(records));
  });

  it("an event-scoped administrator finds only their events' holders, merged in order", async () => {
    const [spring, , autumn] = events as [CreatedEvent, CreatedEvent, CreatedEvent];
    const scoped = await adminToken(PERMISSIONS, 999_302, { eventScope: [spring.id, autumn.id] });
    const theirs = records.filter((record) => record.eventId === spring.id || record.eventId === autumn.id);
    expect(idsOf((await search('okonkwo', scoped)).body.data)).toEqual(
      byId(theirs.filter((record) => record.partyMemberLastName === 'Okonkwo')),
    );
    const seen = await walk('/ticket?search=runner', 'cursor', scoped);
    expect([...seen].sort((a, b) => a - b)).toEqual(byId(theirs));
  });
});
