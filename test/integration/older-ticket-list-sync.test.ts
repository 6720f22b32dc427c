import { randomInt } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { db } from '#shared/data/client';
import { ticketUpdates } from '#shared/lists/ticket-list-queries';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call, getPage } from '../support/api.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { adminToken } from '../support/tokens.ts';
import { atTime } from '../support/clock.ts';

/**
 * GET /ticket's incremental sync (`updatedFrom`): exactly the tickets changed since, in
 * update order, paged and resumed, deletions included, and what a poll costs. Each test
 * works in its own far-future hour of the one clock and closes its window with `updatedTo`,
 * so other files' tickets (changed now) and this file's other tests (which may run before
 * it: the run shuffles their order) stay out of it.
 */
const LIST = '/api/v2/ticket';
const TICKETS = '/api/v2/tickets';
let event: CreatedEvent;
/** A window nobody else writes in: a random minute of the year 9xxx. */
let base: number;
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
/** The end of the test's own hour, which starts at `from`. */
const within = (from: number) => `updatedTo=${iso(from + HOUR - 1)}`;

// Queries and the items they answered on the shared client, so a test can count what a poll reads.
let queries = 0;
let itemsRead = 0;
db.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (context.commandName === 'QueryCommand') {
      queries += 1;
      itemsRead += ((result.output as { Items?: unknown[] }).Items ?? []).length;
    }
    return result;
  },
  { step: 'initialize', name: 'syncTestItemCounter' },
);

afterEach(() => resetClock());

beforeAll(async () => {
  event = await seedEvent();
  base = Date.UTC(9000 + randomInt(0, 900), randomInt(0, 12), 1 + randomInt(0, 28), randomInt(0, 24), randomInt(0, 60));
});

/** Runs `work` with the clock at `ms`, with a token signed at that time. */
const at = <T>(ms: number, work: (token: string) => Promise<T>): Promise<T> =>
  atTime(ms, async () => work(await adminToken(['tickets:read', 'tickets:write'], 717_101)));
const patch = (ms: number, ticket: Ticket, data: Record<string, unknown>) =>
  at(ms, async (token) =>
    expect((await call('PATCH', `${TICKETS}/${ticket.id}`, { token, body: { data } })).status).toBe(200),
  );
const poll = (ms: number, query: string) => at(ms, (token) => getPage<Ticket>(`${LIST}?${query}`, token));

describe('GET /ticket?updatedFrom= (the incremental sync)', () => {
  it('answers exactly the tickets changed since, in update order, and pages with _offset and resumes from the last updated seen', async () => {
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 5);
    const from = base;
    // Changed out of id order: the answer follows update time.
    await patch(from + 1000, tickets[3]!, { partyMember: 'First' });
    await patch(from + 2000, tickets[0]!, { partyMember: 'Second' });
    await patch(from + 3000, tickets[2]!, { partyMember: 'Third' });
    const all = await poll(from + 10_000, `updatedFrom=${iso(from)}&${within(from)}`);
    expect(all.data.map((t) => t.id)).toEqual([tickets[3]!.id, tickets[0]!.id, tickets[2]!.id]);
    // The clock moves on while a request runs: each change is stamped within its second.
    expect(all.data.map((t) => t.updated.slice(0, 19))).toEqual(
      [1000, 2000, 3000].map((ms) => iso(from + ms).slice(0, 19)),
    );
    expect(all.totalCount).toBe(3);
    expect(all.totalCountIsEstimate).toBeUndefined();
    expect(all.next).toBeNull();

    const first = await poll(from + 10_000, `updatedFrom=${iso(from)}&${within(from)}&_limit=2`);
    const second = await poll(from + 10_000, `updatedFrom=${iso(from)}&${within(from)}&_limit=2&_offset=2`);
    expect([first.totalCount, second.totalCount]).toEqual([3, 3]);
    expect([...first.data, ...second.data].map((t) => t.id)).toEqual(all.data.map((t) => t.id));

    // The next poll starts at the last `updated` seen (inclusive: the client skips what it holds).
    await patch(from + 20_000, tickets[1]!, { partyMember: 'Later' });
    const resumed = await poll(from + 30_000, `updatedFrom=${second.data.at(-1)!.updated}&${within(from)}`);
    expect(resumed.data.map((t) => t.id)).toEqual([tickets[2]!.id, tickets[1]!.id]);
    // updatedTo closes the window; unix seconds work too.
    const closed = await poll(from + 30_000, `updatedFrom=${Math.floor(from / 1000)}&updatedTo=${iso(from + 2500)}`);
    expect(closed.data.map((t) => t.id)).toEqual([tickets[3]!.id, tickets[0]!.id]);
  });

  it('reports deletions (deleted: 1), which the other filters no longer list, and combines with them', async () => {
    const from = base + HOUR;
    const [kept, gone] = await seedTickets(event, event.ticketTypes[1]!.id, 2);
    await patch(from + 1000, kept!, { partyMember: 'Kept' });
    await at(from + 2000, async (token) =>
      expect((await call('DELETE', `${TICKETS}/${gone!.id}`, { token })).status).toBeLessThan(300),
    );
    const sync = await poll(from + 5000, `updatedFrom=${iso(from)}&${within(from)}`);
    expect(sync.data.map((t) => [t.id, t.deleted])).toEqual([
      [kept!.id, 0],
      [gone!.id, 1],
    ]);
    await listsCaughtUp([kept!, gone!]);
    const typed = await poll(
      from + 5000,
      `updatedFrom=${iso(from)}&${within(from)}&typeId=${event.ticketTypes[1]!.id}&search=kept`,
    );
    expect(typed.data.map((t) => t.id)).toEqual([kept!.id]);
    const listed = await poll(from + 5000, `typeId=${event.ticketTypes[1]!.id}`);
    expect(listed.data.map((t) => t.id)).toContain(kept!.id);
    expect(listed.data.map((t) => t.id)).not.toContain(gone!.id);
  });

  it('reads no more index items than the tickets changed since plus one page (8 shard Queries)', async () => {
    const from = base + 2 * HOUR;
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 6);
    for (const [n, ticket] of tickets.slice(0, 4).entries())
      await patch(from + 1000 * (n + 1), ticket, { partyMember: `Poll ${n}` });
    queries = 0;
    itemsRead = 0;
    const page = await poll(from + 10_000, `updatedFrom=${iso(from)}&${within(from)}&_limit=2`);
    expect(page.totalCount).toBe(4);
    expect(page.data).toHaveLength(2);
    expect(queries).toBe(8);
    expect(itemsRead).toBeLessThanOrEqual(4 + 2);
    expect(itemsRead).toBe(4);
  });
});

describe('a sync walked with next', () => {
  it('reads each shard only up to the page, and a page is always whole: every change exactly once, in (updated, id) order', async () => {
    const from = base + 3 * HOUR;
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 24);
    for (const [n, ticket] of tickets.entries())
      await patch(from + 1000 * (n + 1), ticket, { partyMember: `Cut ${n}` });
    const everything = { need: 1000, budget: 1000, accept: () => true };
    const whole = await ticketUpdates({ from: iso(from), to: iso(from + HOUR - 1) }, everything);
    expect(whole.complete).toBe(true);
    expect(whole.records.map((t) => t.id)).toEqual(tickets.map((t) => t.id));
    // Three per shard asked: the shards stop short, yet the merged prefix holds at least the three.
    const cut = await ticketUpdates(
      { from: iso(from), to: iso(from + HOUR - 1) },
      { need: 3, budget: 1000, accept: () => true },
    );
    expect(cut.complete).toBe(false);
    expect(cut.itemsRead).toBeLessThanOrEqual(3 * 8);
    const prefix = cut.records.map((t) => t.id);
    expect(prefix.length).toBeGreaterThanOrEqual(3);
    expect(prefix).toEqual(tickets.map((t) => t.id).slice(0, prefix.length));

    // Over HTTP: one loop following `next`, no header to read.
    const seen: number[] = [];
    let query = `updatedFrom=${iso(from)}&${within(from)}&_limit=5`;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await poll(from + 60_000, query);
      expect(page.count).toBe(page.next === null ? page.data.length : 5);
      seen.push(...page.data.map((t) => t.id));
      if (page.next === null) break;
      query = `updatedFrom=${iso(from)}&${within(from)}&_limit=5&_cursor=${page.next}`;
    }
    expect(seen).toEqual(tickets.map((t) => t.id));
  });
});
