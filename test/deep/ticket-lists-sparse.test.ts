import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { LIST_READ_BUDGET } from '#shared/lists/ticket-list-plan';
import { POSITION_BLOCK } from '#shared/lists/list-position-plan';
import { POSITION_SHARDS } from '#shared/lists/list-positions';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, idsOf } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * A filter whose matches are sparse in every partition that could serve it: a team × type
 * pair of 13 tickets, in an event of 4,400 where the team and the type each hold half. No
 * bounded read from the list's start finds them (the team's 2,200 entries are more than a
 * page may read), so the page is read from the blocks the kept positions say hold the
 * pair's tickets, at any depth, by `_offset` and by `next`.
 */
const BASE = '/api/v2/tickets';
const TICKETS = 4_400;
/** One ticket in this many is of the rare pair (in the even, team A, half)... */
const RARE_EVERY = 600;
/** ...and 5 more next to one of them, so one block holds 6 (a page within it is read from its nearer end). */
const isRare = (n: number) => n % RARE_EVERY === 0 || (n > 3000 && n <= 3010 && n % 2 === 0);

let token: string;
let event: CreatedEvent;
let records: TicketRecord[];
let pair: TicketRecord[];
let query: string;

beforeAll(async () => {
  token = await adminToken();
  event = await seedEvent({
    title: 'Trail festival',
    ticketTypes: [
      { name: 'Road', price: 30, total: 10_000 },
      { name: 'Trail', price: 40, total: 10_000 },
    ],
    teams: [{ name: 'Harriers' }, { name: 'Striders' }],
  });
  const [road, trail] = event.ticketTypes.map((type) => type.id);
  const [harriers, striders] = event.teams.map((team) => team.id);
  // Harriers run the road, Striders the trail; one Harrier in RARE_EVERY / 2 runs the trail.
  records = await writeTickets(event, TICKETS, (n) => ({
    teamId: n % 2 === 0 ? harriers! : striders!,
    typeId: n % 2 === 1 || isRare(n) ? trail! : road!,
    // A few cancelled, none of the pair: sparse in the list across all events.
    ...(n % 500 === 250 ? { processState: PROCESS_STATE.cancelled } : {}),
  }));
  pair = records.filter((r) => r.teamId === harriers && r.typeId === trail).sort((a, b) => a.id - b.id);
  query = `event=${event.id}&teams=${harriers}&ticket_types=${trail}`;
}, 180_000);

describe('GET /tickets: a pair too sparse for one bounded read', () => {
  it('answers the whole first page from the blocks holding the pair, reading those blocks only', async () => {
    expect(pair).toHaveLength(Math.ceil(TICKETS / RARE_EVERY) + 5);
    const { body, reads } = await boundedGet(`${BASE}?${query}&_limit=25`, token);
    expect(idsOf(body.data)).toEqual(idsOf(pair));
    expect(body.totalCount).toBe(pair.length);
    expect(body.totalCountIsEstimate).toBeUndefined();
    expect(body.next).toBeNull();
    // Each block holding the pair holds 100 of the team's entries: those are read, not the team's 2,200; and the
    // team's position items, in each of the event's shards (read in step).
    const blocks = new Set(pair.map((r) => Math.floor(r.id / POSITION_BLOCK))).size;
    const positionItems = POSITION_SHARDS * Math.ceil(TICKETS / POSITION_BLOCK);
    expect(reads.itemsRead).toBeLessThan(blocks * (POSITION_BLOCK / 2) + 200 + positionItems);
    expect(reads.itemsRead).toBeLessThan(LIST_READ_BUDGET);
  });

  // Pages of 3 are found by a bounded read from where they start; pages of 12 only from the blocks holding them.
  for (const limit of [3, 12]) {
    it(`pages of ${limit} by _offset and by next: every ticket of the pair exactly once, in id order`, async () => {
      const byOffset: number[] = [];
      for (let offset = 0; offset < pair.length; offset += limit) {
        const { body } = await boundedGet(`${BASE}?${query}&_limit=${limit}&_offset=${offset}`, token);
        expect(body.totalCount).toBe(pair.length);
        byOffset.push(...idsOf(body.data));
      }
      expect(byOffset).toEqual(idsOf(pair));

      const byNext: number[] = [];
      let next: string | null = null;
      for (let page = 0; page === 0 || next; page++) {
        const cursor: string = next ? `&_cursor=${next}` : '';
        const { body } = await boundedGet(`${BASE}?${query}&_limit=${limit}${cursor}`, token);
        byNext.push(...idsOf(body.data));
        next = body.next;
        expect(page).toBeLessThan(pair.length);
      }
      expect(byNext).toEqual(idsOf(pair));
    });
  }

  it('newest first across every event: the few cancelled tickets, from the blocks holding them', async () => {
    // Other files write tickets meanwhile: this event's cancelled ones must come in order, with only cancelled around them.
    const cancelled = records.filter((r) => r.processState === PROCESS_STATE.cancelled).sort((a, b) => b.id - a.id);
    const seen: number[] = [];
    let next: string | null = null;
    for (let page = 0; seen.length < cancelled.length && (page === 0 || next); page++) {
      const cursor: string = next ? `&_cursor=${next}` : '';
      const { body } = await boundedGet(`${BASE}?exclude_process_states=0,1,2&_limit=25${cursor}`, token);
      expect(body.data.every((ticket: { processState: number }) => ticket.processState === 4)).toBe(true);
      const ids = idsOf(body.data);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      seen.push(...ids.filter((id) => records.some((r) => r.id === id)));
      next = body.next;
      expect(page).toBeLessThan(200);
    }
    expect(seen).toEqual(idsOf(cancelled));
  });

  it('answers an empty page past the end, and the pair with the state exclusion too', async () => {
    const past = await call('GET', `${BASE}?${query}&_offset=${pair.length}`, { token });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    const { body } = await boundedGet(`${BASE}?${query}&exclude_process_states=4&_limit=25`, token);
    expect(idsOf(body.data)).toEqual(idsOf(pair));
  });
});
