import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_SHARDS } from '#shared/data/keys';
import { STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import type { CreatedEvent } from '#shared/events/domain/event';
import { PROCESS_STATE, type Ticket } from '#shared/tickets/domain/ticket';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { call, idsOf } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { SYSTEM } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * The ticket lists an on-sale writes hottest are write-sharded by id (shared/data/key-parts.ts INDEX_SHARDS): an
 * event's, a team's, a state's and its purchase list. Each is read merged from its shards: every page in id (or
 * purchase) order, complete by cursor and by `_offset`, the gate list whole, each first page reading about its items.
 */
const TICKETS = 13;
const LIMIT = 4;
/** Each shard asked its share of what the page misses, rounded up, in up to three rounds (ticket-list-shards.ts). */
const SHARD_SLACK = 3 * INDEX_SHARDS.eventTickets;

let token: string;
let event: CreatedEvent;
let tickets: Ticket[];
let team: number;

beforeAll(async () => {
  token = await adminToken();
  event = await seedEvent();
  team = event.teams[0]!.id;
  tickets = [
    ...(await seedTickets(event, event.ticketTypes[0]!.id, TICKETS - 5)),
    ...(await seedTickets(event, event.ticketTypes[1]!.id, 5, { teamId: team })),
  ].sort((a, b) => a.id - b.id);
  await changeTicketStates(tickets[2]!.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);
  await listsCaughtUp([tickets[2]!]);
});

const ids = (list: Ticket[]) => list.map((ticket) => ticket.id);

/** Every page of a list by `next` from its first. */
async function walk(path: string): Promise<number[]> {
  const walked: number[] = [];
  let cursor: string | null | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = await call('GET', `${path}&_limit=${LIMIT}${cursor ? `&_cursor=${cursor}` : ''}`, { token });
    expect(page.status, page.raw).toBe(200);
    walked.push(...idsOf(page.body.data));
    cursor = page.body.next;
    if (!cursor) break;
  }
  return walked;
}

describe('the write-sharded ticket lists', () => {
  it("spread an event's tickets over every shard", () => {
    expect(new Set(tickets.map((ticket) => ticket.id % INDEX_SHARDS.eventTickets)).size).toBe(
      INDEX_SHARDS.eventTickets,
    );
  });

  it('GET /tickets: the event, a team and a state exclusion, each whole in id order by cursor and by _offset', async () => {
    const lists: [string, Ticket[]][] = [
      [`event=${event.id}`, tickets],
      [`event=${event.id}&teams=${team}`, tickets.filter((ticket) => ticket.teamId === team)],
      [`event=${event.id}&exclude_process_states=4`, tickets.filter((_, n) => n !== 2)],
    ];
    for (const [query, want] of lists) {
      expect(await walk(`/api/v2/tickets?${query}`), query).toEqual(ids(want));
      for (const offset of [1, 3, want.length - 2]) {
        const { body } = await boundedGet(`/api/v2/tickets?${query}&_offset=${offset}&_limit=${LIMIT}`, token);
        expect(idsOf(body.data), `${query} _offset=${offset}`).toEqual(ids(want).slice(offset, offset + LIMIT));
        expect(body.totalCount).toBe(want.length);
      }
    }
  });

  it("a first page reads its items and one more, each shard's share rounded up, beside the event's counts", async () => {
    const { body, reads } = await boundedGet(`/api/v2/tickets?event=${event.id}&_limit=${LIMIT}`, token);
    expect(idsOf(body.data)).toEqual(ids(tickets).slice(0, LIMIT));
    expect(reads.itemsRead).toBeLessThanOrEqual(STATS_SHARDS + LIMIT + 1 + SHARD_SLACK + LIMIT);
  });

  it('GET /ticket by event and by purchase range: whole, in order, by _offset', async () => {
    // Every live ticket, the cancelled one too.
    const live = tickets;
    for (const query of [`eventId=${event.id}`, `eventId=${event.id}&purchasedFrom=2000-01-01T00:00:00Z`]) {
      const pages: number[] = [];
      for (let offset = 0; offset < live.length; offset += LIMIT) {
        const { body } = await boundedGet(`/api/v2/ticket?${query}&_offset=${offset}&_limit=${LIMIT}`, token);
        expect(body.totalCount, query).toBe(live.length);
        pages.push(...idsOf(body.data));
      }
      const order = query.includes('purchased')
        ? [...live].sort((a, b) => a.purchasedDate.localeCompare(b.purchasedDate) || a.id - b.id)
        : live;
      expect(pages, query).toEqual(ids(order));
    }
  });

  it("the gate list reads the event's own tickets whole from its shards", async () => {
    const gate = await call('GET', `/api/v2/gate-lists/${event.id}`, { token });
    expect(gate.status, gate.raw).toBe(200);
    expect(gate.body.data.map((entry: { ticketId: number }) => entry.ticketId)).toEqual(ids(tickets));
  });
});
