import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { MAX_SCOPE_SYNC_EVENTS } from '#shared/lists/older-ticket-list';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call, getPage } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { atTime } from '../support/clock.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * The sync of one event (`eventId` or `typeId` with `updatedFrom`) among busy ones: it reads
 * that event's own update shards, so a quiet event's few changes come back whole and alone
 * however many other events' changes share the window. Each window is a minute of the years
 * 7000–7899 of the one clock: other files' changes stay out of it, and its 1,100 changes stay
 * out of the windows other files poll across events (ticket-lists-scale.test.ts closes its
 * hour in 8xxx; older-ticket-list-sync.test.ts polls open-ended from 9xxx).
 */
const LIST = '/api/v2/ticket';
const TICKETS = '/api/v2/tickets';
const iso = (ms: number) => new Date(ms).toISOString();
/** More changes than one request reads (MAX_LIST_READ) in another event, amid the quiet one's. */
const BUSY_CHANGES = 1100;

let from: number;

const at = <T>(ms: number, work: (token: string) => Promise<T>): Promise<T> =>
  atTime(ms, async () => work(await adminToken(['tickets:read', 'tickets:write'], 717_401)));
const patch = (ms: number, ticket: Ticket, partyMember: string) =>
  at(ms, async (token) =>
    expect((await call('PATCH', `${TICKETS}/${ticket.id}`, { token, body: { data: { partyMember } } })).status).toBe(
      200,
    ),
  );
const poll = (query: string) => at(from + 60_000, (token) => getPage<Ticket>(`${LIST}?${query}`, token));
/** The same page, with what it read from DynamoDB (test/support/dynamo-reads.ts). */
const measured = (query: string) => at(from + 60_000, (token) => boundedGet(`${LIST}?${query}`, token));
const ids = (tickets: { id: number }[]) => tickets.map((ticket) => ticket.id);

/** Two changes and a deletion of a fresh event's four tickets, around the busy event's burst. */
async function quietEvent(): Promise<{ event: CreatedEvent; tickets: Ticket[]; changed: Ticket[] }> {
  const event = await seedEvent();
  const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 4);
  await patch(from + 1000, tickets[2]!, 'Changed first');
  await patch(from + 3000, tickets[0]!, 'Changed second');
  await at(from + 4000, async (token) =>
    expect((await call('DELETE', `${TICKETS}/${tickets[3]!.id}`, { token })).status).toBeLessThan(300),
  );
  return { event, tickets, changed: [tickets[2]!, tickets[0]!, tickets[3]!] };
}

beforeAll(async () => {
  from = Date.UTC(7000 + randomInt(0, 900), randomInt(0, 12), 1 + randomInt(0, 28), randomInt(0, 24), randomInt(0, 60));
  // The busy event's burst: more changes than one request reads, between the quiet events' changes.
  const busy = await seedEvent();
  await writeTickets(busy, BUSY_CHANGES, () => ({ typeId: busy.ticketTypes[0]!.id, updated: iso(from + 2000) }));
}, 120_000);

describe("GET /ticket?eventId=…&updatedFrom=…: one event's sync among busy ones", () => {
  it("answers exactly the event's changes, deletions included, reading only those from its own shards", async () => {
    const { event, changed } = await quietEvent();
    const { body: page, reads } = await measured(`eventId=${event.id}&updatedFrom=${iso(from)}`);
    expect(ids(page.data)).toEqual(ids(changed));
    expect(page.data.map((ticket: Ticket) => ticket.deleted)).toEqual([0, 0, 1]);
    expect([page.totalCount, page.next, page.totalCountIsEstimate]).toEqual([3, null, undefined]);
    // Its 8 shards, each read only to its own changes (none of the busy event's 1,100).
    expect(reads.byCommand.QueryCommand).toBe(8);
    expect(reads.itemsRead).toBe(3);

    // By its type (the type's event's shards), and walked by `next`, the same three once each.
    const typed = await poll(`typeId=${event.ticketTypes[0]!.id}&updatedFrom=${iso(from)}`);
    expect(ids(typed.data)).toEqual(ids(changed));
    const first = await poll(`eventId=${event.id}&updatedFrom=${iso(from)}&_limit=2`);
    const rest = await poll(`eventId=${event.id}&updatedFrom=${iso(from)}&_limit=2&_cursor=${first.next}`);
    expect([...ids(first.data), ...ids(rest.data)]).toEqual(ids(changed));
    expect(rest.next).toBeNull();
    // A window closed before the deletion.
    const closed = await poll(`eventId=${event.id}&updatedFrom=${iso(from)}&updatedTo=${iso(from + 3500)}`);
    expect(ids(closed.data)).toEqual(ids(changed.slice(0, 2)));
  });

  it('a caller scoped to quiet events syncs them without eventId: their changes alone, merged in order, from their own shards', async () => {
    const [one, two] = [await quietEvent(), await quietEvent()];
    const scoped = (query: string, events: number[]) =>
      atTime(from + 60_000, async () =>
        boundedGet(`${LIST}?${query}`, await adminToken(['tickets:read'], 717_403, { eventScope: events })),
      );
    const { body: page, reads } = await scoped(`updatedFrom=${iso(from)}`, [one.event.id, two.event.id]);
    const order = (ticket: Ticket) => `${ticket.updated}#${String(ticket.id).padStart(10, '0')}`;
    const expected = [...one.changed, ...two.changed].map((ticket) =>
      page.data.find((t: Ticket) => t.id === ticket.id),
    );
    expect(expected.every(Boolean)).toBe(true);
    expected.sort((a: Ticket, b: Ticket) => (order(a) < order(b) ? -1 : 1));
    expect(ids(page.data)).toEqual(ids(expected));
    expect([page.totalCount, page.next, page.totalCountIsEstimate]).toEqual([6, null, undefined]);
    // Both events' 8 shards; none of the busy event's 1,100 changes.
    expect(reads.byCommand.QueryCommand).toBe(16);
    expect(reads.itemsRead).toBe(6);
    const first = await scoped(`updatedFrom=${iso(from)}&_limit=4`, [one.event.id, two.event.id]);
    const rest = await scoped(`updatedFrom=${iso(from)}&_limit=4&_cursor=${first.body.next}`, [
      one.event.id,
      two.event.id,
    ]);
    expect([...ids(first.body.data), ...ids(rest.body.data)]).toEqual(ids(expected));

    // A scope wider than MAX_SCOPE_SYNC_EVENTS has the scope applied to every event's changes: crowded out, a 400 naming the per-event sync.
    const wide = [one.event.id, two.event.id, ...Array.from({ length: MAX_SCOPE_SYNC_EVENTS - 1 }, (_, i) => 1e9 + i)];
    const crowded = await atTime(from + 60_000, async () =>
      call('GET', `${LIST}?updatedFrom=${iso(from)}`, {
        token: await adminToken(['tickets:read'], 717_403, { eventScope: wide }),
      }),
    );
    expect(crowded.status).toBe(400);
    expect(crowded.body.errors[0].path).toBe('query.updatedFrom');
    expect(crowded.body.detail).toContain('sync each of your events with eventId');
  });
});
