import { beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { encodeCursor, LIST_READ_BUDGET } from '#shared/lists/ticket-list-plan';
import { POSITION_BLOCK, SPAN_BLOCKS } from '#shared/lists/list-position-plan';
import { STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import { INDEX_SHARDS } from '#shared/data/keys';
import { POSITION_SHARDS } from '#shared/lists/list-positions';
import { MAX_LIST_READ } from '#shared/lists/older-ticket-list';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, idsOf } from '../support/api.ts';
import { boundedGet, countReads } from '../support/dynamo-reads.ts';
import { stateOf, writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Every list filter of GET /tickets at 10,000 tickets in one event reads a
 * bounded number of items, whatever the event's size: the counts (one shard batch), at
 * most limit + 1 index items per partition Queried, and one batch of the page's tickets.
 */
const BASE = '/api/v2/tickets';
const TICKETS = 10_000;
const LIMIT = 25;
/** The last name of one ticket only (position 9,000 in id order, ids being allocated in order). */
const RARE_NAME = 'Ångström';
/**
 * What a write-sharded list's page reads past its items: each shard asked its share of what is missing, rounded up,
 * in up to three rounds where the ids lie unevenly (shared/lists/ticket-list-shards.ts).
 */
const SHARD_SLACK = 3 * INDEX_SHARDS.eventTickets;
/** Shards of the listed events + (limit + 1) per list (and its shards' slack) + the page's batch read. */
const bound = (lists: number, events = 1) => events * STATS_SHARDS + lists * (LIMIT + 1 + SHARD_SLACK) + LIMIT;

let token: string;
let big: CreatedEvent;
let granted: CreatedEvent;
let records: TicketRecord[];
let grantedOwn: TicketRecord[];

beforeAll(async () => {
  token = await adminToken();
  granted = await seedEvent({ title: 'Expo day', ticketTypes: [{ name: 'Expo', price: 5, total: 100 }], teams: [] });
  big = await seedEvent({
    title: 'City marathon',
    ticketTypes: [
      { name: 'Marathon', price: 80, total: 20_000 },
      { name: 'Elite', price: 0, total: 2_000 },
      { name: 'Marathon + expo', price: 95, total: 5_000, grants: [granted.id] },
    ],
    teams: [{ name: 'Red' }, { name: 'Blue' }, { name: 'Green' }, { name: 'Gold' }, { name: 'Grey' }],
  });
  const [marathon, elite, pass] = big.ticketTypes.map((type) => type.id);
  records = await writeTickets(big, TICKETS, (n) => ({
    ...(n === 9000 ? { partyMemberLastName: RARE_NAME } : {}),
    typeId: n % 10 < 6 ? marathon! : n % 10 < 7 ? elite! : pass!,
    teamId: n % 4 === 0 ? null : big.teams[n % 5]!.id,
    processState: stateOf(n),
  }));
  grantedOwn = await writeTickets(granted, 20, () => ({ typeId: granted.ticketTypes[0]!.id }));
}, 180_000);

const list = (query: string) => boundedGet(`${BASE}?${query}`, token);
/** The ids the event's tickets span (other files' tickets interleave with its ids). */
const eventIdSpan = () => Math.max(...records.map((r) => r.id)) - Math.min(...records.map((r) => r.id));
/**
 * Position items an offset reads at most: half of the blocks the event's ids span, in each of its POSITION_SHARDS
 * shards (read in step, list-position-reads.ts: each shard a block or two past the position).
 */
const halfTheBlocks = () => POSITION_SHARDS * (Math.ceil(eventIdSpan() / POSITION_BLOCK / 2) + 2);
const inIdOrder = (matches: TicketRecord[]) => idsOf([...matches].sort((a, b) => a.id - b.id));
const firstPage = (matches: TicketRecord[]) => idsOf(matches.sort((a, b) => a.id - b.id).slice(0, LIMIT));

describe('GET /tickets at 10,000 tickets in one event', () => {
  const cases: [string, () => string, (record: TicketRecord) => boolean, () => number][] = [
    ['the event alone', () => `event=${big.id}`, () => true, () => bound(1)],
    ['teams', () => `event=${big.id}&teams=${big.teams[2]!.id}`, (r) => r.teamId === big.teams[2]!.id, () => bound(1)],
    ['teams=0 (unassigned)', () => `event=${big.id}&teams=0`, (r) => r.teamId === null, () => bound(1)],
    [
      'ticket_types',
      () => `event=${big.id}&ticket_types=${big.ticketTypes[1]!.id}`,
      (r) => r.typeId === big.ticketTypes[1]!.id,
      () => bound(1),
    ],
    [
      'exclude_process_states',
      () => `event=${big.id}&exclude_process_states=4`,
      (r) => r.processState !== PROCESS_STATE.cancelled,
      () => bound(3),
    ],
    [
      'exclude_process_states=1 (most are active)',
      () => `event=${big.id}&exclude_process_states=1`,
      (r) => r.processState !== PROCESS_STATE.active,
      () => bound(3),
    ],
    [
      'a team and the state exclusion',
      () => `event=${big.id}&teams=${big.teams[1]!.id}&exclude_process_states=4`,
      (r) => r.teamId === big.teams[1]!.id && r.processState !== 4,
      () => bound(1) + 200,
    ],
  ];
  for (const [name, query, matches, limit] of cases) {
    it(`${name}: one bounded page, exact totalCount from the counts`, async () => {
      const { body, reads } = await list(`${query()}&_limit=${LIMIT}`);
      const expected = records.filter((record) => matches(record));
      expect(idsOf(body.data)).toEqual(firstPage(expected));
      expect(body.totalCount).toBe(expected.length);
      expect(body.totalCountIsEstimate).toBeUndefined();
      expect(body.next).toEqual(expect.any(String));
      expect(reads.itemsRead).toBeLessThanOrEqual(limit());
    });
  }

  it('accessEvents: the event own tickets and those granted by another event type, exact, bounded', async () => {
    const { body, reads } = await list(`accessEvents=${granted.id}&_limit=${LIMIT}`);
    const expected = [...grantedOwn, ...records.filter((record) => record.typeId === big.ticketTypes[2]!.id)];
    expect(idsOf(body.data)).toEqual(firstPage(expected));
    expect(body.totalCount).toBe(expected.length);
    expect(reads.itemsRead).toBeLessThanOrEqual(bound(2));
  });

  /** Granted tickets by team (team 2 holds a part of the pass holders: ticket n has team n % 5, the pass when n % 10 is 7 to 9). */
  const grantedByTeam = (): [string, (record: TicketRecord) => boolean][] => {
    const pass = big.ticketTypes[2]!.id;
    const team = big.teams[2]!.id;
    const granting = (r: TicketRecord) => r.typeId === pass || r.eventId === granted.id;
    return [
      [`accessEvents=${granted.id}&teams=${team}`, (r) => r.typeId === pass && r.teamId === team],
      // The access event's own tickets without a team and the granted ones without: two disjoint lists.
      [`accessEvents=${granted.id}&teams=0`, (r) => granting(r) && r.teamId === null],
      [
        `accessEvents=${granted.id}&teams=${team},0&exclude_process_states=4`,
        (r) => granting(r) && (r.teamId === team || r.teamId === null) && r.processState !== PROCESS_STATE.cancelled,
      ],
      [
        `accessEvents=${granted.id}&teams=${team},0&ticket_types=${pass}`,
        (r) => r.typeId === pass && (r.teamId === team || r.teamId === null),
      ],
    ];
  };

  it('accessEvents with teams or ticket_types: the granted tickets counted by team and type too, so the total is exact', async () => {
    const pass = big.ticketTypes[2]!.id;
    const byType: [string, (record: TicketRecord) => boolean] = [
      `accessEvents=${granted.id}&ticket_types=${pass}&exclude_process_states=4`,
      (r) => r.typeId === pass && r.processState !== PROCESS_STATE.cancelled,
    ];
    for (const [query, matches] of [...grantedByTeam(), byType]) {
      const { body } = await list(`${query}&_limit=${LIMIT}`);
      const expected = [...grantedOwn, ...records].filter(matches);
      expect(body.totalCount, query).toBe(expected.length);
      expect(body.totalCountIsEstimate, query).toBeUndefined();
      expect(idsOf(body.data), query).toEqual(firstPage(expected));
    }
  });

  it("accessEvents with a ticket type: a deep _offset starts from the kept positions (the type's part of both lists' blocks)", async () => {
    const pass = big.ticketTypes[2]!.id;
    const expected = idsOf([...grantedOwn, ...records].filter((r) => r.typeId === pass).sort((a, b) => a.id - b.id));
    const offset = expected.length - 30;
    const { body, reads } = await list(
      `accessEvents=${granted.id}&ticket_types=${pass}&_offset=${offset}&_limit=${LIMIT}`,
    );
    expect(idsOf(body.data)).toEqual(expected.slice(offset, offset + LIMIT));
    expect(body.totalCount).toBe(expected.length);
    // The counts, both lists' blocks from the nearer end, less than a block of each skipped, the page: not the offset.
    const positioned = STATS_SHARDS + 2 * halfTheBlocks() + 2 + POSITION_BLOCK + LIMIT + 1 + LIMIT;
    expect(positioned).toBeLessThan(offset);
    expect(reads.itemsRead).toBeLessThanOrEqual(positioned);
  });

  it("accessEvents with teams: a deep _offset starts from the kept positions (the granting type's part of its own event's team blocks)", async () => {
    for (const [query, matches] of grantedByTeam()) {
      const expected = idsOf([...grantedOwn, ...records].filter(matches).sort((a, b) => a.id - b.id));
      expect(expected.length, query).toBeGreaterThan(300);
      for (const offset of [expected.length - 30, Math.floor(expected.length / 2) + 7]) {
        const { body, reads } = await list(`${query}&_offset=${offset}&_limit=${LIMIT}`);
        expect(idsOf(body.data), `${query}&_offset=${offset}`).toEqual(expected.slice(offset, offset + LIMIT));
        expect(body.totalCount, query).toBe(expected.length);
        // The counts, the grants, per list (the access event's own team lists and the granting event's) its blocks
        // from the nearer end, then one block of the granted entries: not the 3,000 granted entries before (a 400).
        const lists = 2 * query.split('teams=')[1]!.split('&')[0]!.split(',').length;
        const positioned = STATS_SHARDS + 1 + lists * (halfTheBlocks() + 2) + 2 * POSITION_BLOCK + LIMIT;
        expect(positioned).toBeLessThan(records.length * 0.3);
        expect(reads.itemsRead, `${query}&_offset=${offset}`).toBeLessThanOrEqual(positioned);
      }
    }
  });

  it('an access event beside the event granting into it: each ticket once, an exact total, a deep _offset from the kept positions', async () => {
    // The granted tickets are the event's own too: the union is both events' own lists, counted once.
    const expected = idsOf([...records, ...grantedOwn].sort((a, b) => a.id - b.id));
    for (const offset of [TICKETS / 2, expected.length - 10]) {
      const { body, reads } = await list(
        `event=${big.id}&accessEvents=${granted.id}&_offset=${offset}&_limit=${LIMIT}`,
      );
      expect(idsOf(body.data), `_offset=${offset}`).toEqual(expected.slice(offset, offset + LIMIT));
      expect(body.totalCount).toBe(expected.length);
      expect(body.totalCountIsEstimate).toBeUndefined();
      // The counts and grants, both events' blocks from the nearer end, one block of each serving partition: not the offset.
      const positioned = 2 * STATS_SHARDS + 1 + 2 * (halfTheBlocks() + 2) + 3 * POSITION_BLOCK + LIMIT;
      expect(positioned).toBeLessThan(offset);
      expect(reads.itemsRead, `_offset=${offset}`).toBeLessThanOrEqual(positioned);
    }
  });

  it("teams with ticket_types: a deep _offset starts from the kept positions (the types' parts of the teams' blocks)", async () => {
    const teams = [0, ...big.teams.map((t) => t.id)];
    const types = [big.ticketTypes[0]!.id, big.ticketTypes[1]!.id];
    const query = `event=${big.id}&teams=${teams.join(',')}&ticket_types=${types.join(',')}&exclude_process_states=4`;
    const expected = idsOf(
      records
        .filter((r) => types.includes(r.typeId) && r.processState !== PROCESS_STATE.cancelled)
        .sort((a, b) => a.id - b.id),
    );
    for (const offset of [expected.length - 30, Math.floor(expected.length / 2) + 7]) {
      const { body, reads } = await list(`${query}&_offset=${offset}&_limit=${LIMIT}`);
      expect(idsOf(body.data), `_offset=${offset}`).toEqual(expected.slice(offset, offset + LIMIT));
      expect(body.totalCount).toBe(expected.length);
      // Per team list: its blocks from the nearer end and the page's share of one block; not the offset (a 400 before).
      const positioned = STATS_SHARDS + teams.length * (halfTheBlocks() + 2 + LIMIT + 1) + POSITION_BLOCK + LIMIT;
      expect(positioned).toBeLessThan(offset);
      expect(reads.itemsRead, `_offset=${offset}`).toBeLessThanOrEqual(positioned);
    }
  });

  it('teams with ticket_types: the smaller one is the Query, the other filters a bounded read, and the joint kept count is exact', async () => {
    // Half the Elite tickets are in Blue: too many to read them all for the page.
    const team = big.teams[1]!.id;
    const elite = big.ticketTypes[1]!.id;
    const { body, reads } = await list(`event=${big.id}&teams=${team}&ticket_types=${elite}&_limit=${LIMIT}`);
    const expected = records.filter((record) => record.teamId === team && record.typeId === elite);
    expect(idsOf(body.data)).toEqual(firstPage(expected));
    expect(body.totalCount).toBe(expected.length);
    expect(body.totalCountIsEstimate).toBeUndefined();
    const active = await list(
      `event=${big.id}&teams=${team}&ticket_types=${elite}&exclude_process_states=4&_limit=${LIMIT}`,
    );
    expect(active.body.totalCount).toBe(
      expected.filter((record) => record.processState !== PROCESS_STATE.cancelled).length,
    );
    expect(reads.itemsRead).toBeLessThanOrEqual(STATS_SHARDS + LIST_READ_BUDGET + LIMIT);
    expect(reads.itemsRead).toBeLessThan(TICKETS / 10);

    // Every team (and none) with two types: 12 pairs, each counted, so the total is exact too.
    const teams = [0, ...big.teams.map((t) => t.id)];
    const types = [big.ticketTypes[0]!.id, elite];
    const wide = await list(
      `event=${big.id}&teams=${teams.join(',')}&ticket_types=${types.join(',')}&exclude_process_states=4&_limit=${LIMIT}`,
    );
    const inWide = records.filter(
      (record) => types.includes(record.typeId) && record.processState !== PROCESS_STATE.cancelled,
    );
    expect(wide.body.totalCount).toBe(inWide.length);
    expect(wide.body.totalCountIsEstimate).toBeUndefined();
    expect(idsOf(wide.body.data)).toEqual(firstPage(inWide));
    // More than 100 pairs: a 400 naming the cap, never an estimate.
    const tooMany = await call(
      'GET',
      `${BASE}?event=${big.id}&teams=${Array.from({ length: 11 }, (_, i) => i + 1).join(',')}&ticket_types=${Array.from({ length: 10 }, (_, i) => i + 1).join(',')}`,
      { token },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({
      path: 'query.teams',
      message: expect.stringContaining('100 pairs'),
    });
  });

  it('a deep page: any _offset from the kept positions, then the cursor, each reading about what the first page reads', async () => {
    const sorted = idsOf([...records].sort((a, b) => a.id - b.id));
    // The counts, the position blocks from the nearer end (one Query), less than a block skipped, the page.
    const offsetBound = STATS_SHARDS + halfTheBlocks() + 2 + POSITION_BLOCK + LIMIT + 1 + LIMIT;
    for (const offset of [1000, 4321, 9000, TICKETS - 3]) {
      const page = await list(`event=${big.id}&_offset=${offset}&_limit=${LIMIT}`);
      expect(idsOf(page.body.data)).toEqual(sorted.slice(offset, offset + LIMIT));
      expect(page.body.totalCount).toBe(TICKETS);
      expect(page.reads.itemsRead).toBeLessThanOrEqual(offsetBound);
    }
    // Any position in a block: it is read from the block's nearer end, so at most half a block of tuples is skipped.
    const halfBlockBound = STATS_SHARDS + halfTheBlocks() + 2 + POSITION_BLOCK / 2 + 1 + LIMIT + 1 + LIMIT;
    for (let offset = 5000; offset < 5000 + POSITION_BLOCK; offset += 23) {
      const page = await list(`event=${big.id}&_offset=${offset}&_limit=${LIMIT}`);
      expect(idsOf(page.body.data), `_offset=${offset}`).toEqual(sorted.slice(offset, offset + LIMIT));
      expect(page.reads.itemsRead, `_offset=${offset}`).toBeLessThanOrEqual(halfBlockBound);
    }
    const teamThree = big.teams[3]!.id;
    const inTeam = idsOf(
      records.filter((record) => record.teamId === teamThree && record.processState !== 4).sort((a, b) => a.id - b.id),
    );
    const teamPage = await list(
      `event=${big.id}&teams=${teamThree}&exclude_process_states=4&_offset=${inTeam.length - 30}&_limit=${LIMIT}`,
    );
    expect(idsOf(teamPage.body.data)).toEqual(inTeam.slice(-30, -30 + LIMIT));
    expect(teamPage.body.totalCount).toBe(inTeam.length);
    // A sparse list's middle: its share of the event's tickets sizes the one Query of blocks; then one Query of tickets.
    const middle = Math.floor(inTeam.length / 2);
    const teamMiddle = await list(
      `event=${big.id}&teams=${teamThree}&exclude_process_states=4&_offset=${middle}&_limit=${LIMIT}`,
    );
    expect(idsOf(teamMiddle.body.data)).toEqual(inTeam.slice(middle, middle + LIMIT));
    // The team's spans from the nearer end, then one span's blocks, each one round of Queries (one per shard, read in
    // step), then the tickets (from the block's nearer end: when that is its end and the page runs past it, down from
    // it and up past it in parallel, so one or two Queries; which depends on where the event's first id falls in its
    // block), each read one Query per shard of the team's list and a refill round at most; no GetItem.
    const rounds = 2 * POSITION_SHARDS;
    expect(teamMiddle.reads.byCommand.QueryCommand).toBeGreaterThanOrEqual(rounds + INDEX_SHARDS.eventTickets);
    expect(teamMiddle.reads.byCommand.QueryCommand).toBeLessThanOrEqual(rounds + 2 * 2 * INDEX_SHARDS.eventTickets);
    expect(teamMiddle.reads.byCommand.GetItemCommand ?? 0).toBe(0);

    const atCap = await list(`event=${big.id}&_offset=1000&_limit=${LIMIT}`);
    const following = await list(`event=${big.id}&_cursor=${atCap.body.next}&_limit=${LIMIT}`);
    expect(idsOf(following.body.data)).toEqual(sorted.slice(1000 + LIMIT, 1000 + 2 * LIMIT));
    expect(following.reads.itemsRead).toBeLessThanOrEqual(bound(1));

    // 90 % in, filtered: the cursor starts the Query there.
    const deep = sorted[9000]!;
    const team = big.teams[4]!.id;
    const filtered = await list(`event=${big.id}&teams=${team}&_cursor=${encodeCursor(deep)}&_limit=${LIMIT}`);
    expect(idsOf(filtered.body.data)).toEqual(
      firstPage(records.filter((record) => record.id > deep && record.teamId === team)),
    );
    expect(filtered.body.totalCount).toBe(records.filter((record) => record.teamId === team).length);
    expect(filtered.reads.itemsRead).toBeLessThanOrEqual(bound(1));

    const last = await list(`event=${big.id}&_cursor=${encodeCursor(sorted.at(-3)!)}&_limit=${LIMIT}`);
    expect(idsOf(last.body.data)).toEqual(sorted.slice(-2));
    expect(last.body.next).toBeNull();
  });

  it("a team's deep _offset sums a few spans, then the blocks of one span; a filter spans do not serve, the blocks alone", async () => {
    const team = big.teams[1]!.id;
    const live = (record: TicketRecord) => record.teamId === team && record.processState !== PROCESS_STATE.cancelled;
    const waiting = (record: TicketRecord) => record.teamId === team && record.processState === PROCESS_STATE.active;
    const cases = [
      { query: `teams=${team}&exclude_process_states=4`, expected: inIdOrder(records.filter(live)) },
      // Keeping active but not checked-in tickets: spans count those two together, so the blocks alone position it.
      { query: `teams=${team}&exclude_process_states=0,2,4`, expected: inIdOrder(records.filter(waiting)) },
    ];
    const spans = Math.ceil(eventIdSpan() / (POSITION_BLOCK * SPAN_BLOCKS)) + 1;
    const pages = async () => {
      const answered: { ids: number[]; positionItems: number }[] = [];
      for (const { query, expected } of cases) {
        for (const offset of [
          Math.floor(expected.length * 0.3),
          Math.floor(expected.length * 0.6),
          expected.length - 5,
        ]) {
          const page = await list(`event=${big.id}&${query}&_offset=${offset}&_limit=${LIMIT}`);
          expect(idsOf(page.body.data), `${query} _offset=${offset}`).toEqual(expected.slice(offset, offset + LIMIT));
          expect(page.body.totalCount).toBe(expected.length);
          answered.push({ ids: idsOf(page.body.data), positionItems: page.reads.positionItemsRead });
        }
      }
      return answered;
    };
    const withSpans = await pages();
    // Live tickets: at most half the spans and half of one span's blocks (each a little over), in each shard.
    for (const { positionItems } of withSpans.slice(0, 3))
      expect(positionItems).toBeLessThanOrEqual(POSITION_SHARDS * (spans / 2 + 2 + SPAN_BLOCKS / 2 + 2));
    // Active without checked in, 30 % and 60 % in: the blocks alone, from the nearer end (no spans read).
    for (const { positionItems } of withSpans.slice(3, 5))
      expect(positionItems).toBeGreaterThan(POSITION_SHARDS * SPAN_BLOCKS);
  });

  it('answers an empty last page past the end, and 400 for a cursor with an offset, a forged cursor', async () => {
    const past = await list(`event=${big.id}&_offset=${TICKETS}&_limit=${LIMIT}`);
    expect(past.body.data).toEqual([]);
    expect(past.body.totalCount).toBe(TICKETS);
    expect(past.body.next).toBeNull();
    const both = await call('GET', `${BASE}?event=${big.id}&_offset=5&_cursor=${encodeCursor(1)}`, { token });
    expect(both.status).toBe(400);
    const forged = await call('GET', `${BASE}?event=${big.id}&_cursor=bm9wZQ`, { token });
    expect(forged.status).toBe(400);
    const huge = await call('GET', `${BASE}?event=${big.id}&_offset=999999999999999`, { token });
    expect(huge.status).toBeLessThan(500);
  });
});

describe('every page reachable: walking 10,000 tickets', () => {
  /** Pages of `_limit=100` until a short page (or `next` is null), as a client that knows nothing else would. */
  async function walk(base: string, by: 'offset' | 'cursor'): Promise<number[]> {
    const seen: number[] = [];
    let query = `${base}&_limit=100`;
    for (let pages = 0; pages < 200; pages++) {
      const { result } = await countReads(() => call('GET', `/api/v2${query}`, { token }));
      expect(result.status, result.raw).toBe(200);
      seen.push(...idsOf(result.body.data));
      if (by === 'offset' ? result.body.count < 100 : result.body.next === null) return seen;
      query =
        by === 'offset'
          ? `${base}&_limit=100&_offset=${seen.length}`
          : `${base}&_limit=100&_cursor=${result.body.next}`;
    }
    throw new Error(`${base}: more than 200 pages`);
  }

  it('GET /tickets and GET /ticket, by _offset and by the cursor, answer every id exactly once, in id order', async () => {
    const sorted = idsOf([...records].sort((a, b) => a.id - b.id));
    for (const [base, by] of [
      [`/tickets?event=${big.id}`, 'offset'],
      [`/tickets?event=${big.id}`, 'cursor'],
      [`/ticket?eventId=${big.id}`, 'offset'],
      [`/ticket?eventId=${big.id}`, 'cursor'],
    ] as const) {
      expect(await walk(base, by), `${base} by ${by}`).toEqual(sorted);
    }
    // A jump lands where the walk would: position 2,500, and a filter's exact total.
    const jump = await list(`event=${big.id}&_offset=2500&_limit=${LIMIT}`);
    expect(idsOf(jump.body.data)).toEqual(sorted.slice(2500, 2500 + LIMIT));
    const team = big.teams[2]!.id;
    const inTeam = records.filter(
      (record) => record.teamId === team && record.processState !== PROCESS_STATE.cancelled,
    ).length;
    expect((await list(`event=${big.id}&teams=${team}&exclude_process_states=4`)).body.totalCount).toBe(inTeam);
  }, 120_000);

  it('the sync answers exactly the 6 tickets changed after T, 4 of them past position 1,000, reading about 6 items', async () => {
    const sorted = idsOf([...records].sort((a, b) => a.id - b.id));
    const changed = [10, 500, 1500, 4000, 7000, 9990].map((position) => sorted[position]!);
    // An hour of a far year nobody else writes in (older-ticket-list-sync.test.ts works in hours of the years 9000 on):
    // the clock moves there for the changes, the poll closes the hour.
    const T = Date.UTC(8000 + Math.floor(Math.random() * 900), Math.floor(Math.random() * 12), 1);
    advanceClock(T - Date.now());
    try {
      const writer = await adminToken();
      for (const id of changed)
        expect(
          (
            await call('PATCH', `/api/v2/tickets/${id}`, {
              token: writer,
              body: { data: { chipNumber: `SYNC-${id}` } },
            })
          ).status,
        ).toBe(200);
      const { result, reads } = await countReads(async () =>
        call(
          'GET',
          `/api/v2/ticket?updatedFrom=${new Date(T).toISOString()}&updatedTo=${new Date(T + 3_600_000).toISOString()}&_limit=100`,
          { token: writer },
        ),
      );
      expect(result.status, result.raw).toBe(200);
      expect(idsOf(result.body.data).sort((a, b) => a - b)).toEqual(changed);
      expect(result.body.next).toBeNull();
      expect(reads.itemsRead).toBeLessThanOrEqual(changed.length + 2);
    } finally {
      resetClock();
    }
  });
});

describe('GET /ticket (the older list) at 10,000 tickets in one event', () => {
  const older = (query: string) => boundedGet(`/api/v2/ticket?${query}`, token);

  it('eventId alone reads only up to the page, counts from the kept counts, and starts any _offset from the kept positions', async () => {
    const sorted = idsOf([...records].sort((a, b) => a.id - b.id));
    const first = await older(`eventId=${big.id}&_limit=${LIMIT}`);
    expect(first.result.body.totalCount).toBe(TICKETS);
    // The shards, the page's entries and one more (the event's list's shards each their share), the page's tickets batch-read.
    expect(first.reads.itemsRead).toBeLessThanOrEqual(STATS_SHARDS + LIMIT + 1 + SHARD_SLACK + LIMIT);
    for (const offset of [900, 8000]) {
      const deep = await older(`eventId=${big.id}&_limit=${LIMIT}&_offset=${offset}`);
      expect(idsOf(deep.result.body.data)).toEqual(sorted.slice(offset, offset + LIMIT));
      expect(deep.reads.itemsRead).toBeLessThanOrEqual(STATS_SHARDS + halfTheBlocks() + 2 + POSITION_BLOCK + LIMIT + 1);
    }
  });

  it('typeId (with or without eventId) reads only up to the page and counts from the type counts', async () => {
    const type = big.ticketTypes[0]!.id;
    const sorted = idsOf(records.filter((record) => record.typeId === type).sort((a, b) => a.id - b.id));
    for (const query of [`typeId=${type}`, `eventId=${big.id}&typeId=${type}`]) {
      const first = await older(`${query}&_limit=${LIMIT}`);
      expect(idsOf(first.result.body.data), query).toEqual(sorted.slice(0, LIMIT));
      expect(first.result.body.totalCount, query).toBe(sorted.length);
      expect(first.result.headers['x-list-truncated'], query).toBeUndefined();
      // The shards, the type's own item (typeId alone: its event), the page's entries and one more, its tickets.
      expect(first.reads.itemsRead, query).toBeLessThanOrEqual(STATS_SHARDS + 1 + LIMIT + 1 + LIMIT);
      const deep = await older(`${query}&_limit=${LIMIT}&_offset=${sorted.length - 40}`);
      expect(idsOf(deep.result.body.data), query).toEqual(sorted.slice(-40, -40 + LIMIT));
      expect(deep.reads.itemsRead, query).toBeLessThanOrEqual(
        STATS_SHARDS + 1 + halfTheBlocks() + 2 + POSITION_BLOCK + LIMIT + 1,
      );
    }
    // A type of another event: nothing matches, and the count says so.
    const elsewhere = await older(`eventId=${granted.id}&typeId=${type}&_limit=${LIMIT}`);
    expect(elsewhere.result.body.totalCount).toBe(0);
    expect(elsewhere.result.body.data).toEqual([]);
  });

  it('every other filter reads at most MAX_LIST_READ index items: a whole page with `next`, or a 400 naming narrower filters, never a short page', async () => {
    for (const query of [`updatedFrom=2000-01-01T00:00:00Z`, `eventId=${big.id}&purchasedFrom=2000-01-01T00:00:00Z`]) {
      const { result, reads } = await older(`${query}&_limit=${LIMIT}`);
      expect(result.body.count, query).toBe(LIMIT);
      expect(result.body.next, query).toEqual(expect.any(String));
      expect(result.headers['x-list-truncated'], query).toBeUndefined();
      expect(reads.itemsRead, query).toBeLessThanOrEqual(MAX_LIST_READ + LIMIT);
    }
  });

  it('search reads the search index: a name only the ticket at position 9,000 holds is found, reading a few items; a name nobody holds is an empty page', async () => {
    const sorted = [...records].sort((a, b) => a.id - b.id);
    const target = sorted[9000]!;
    expect(target.partyMemberLastName).toBe(RARE_NAME);
    for (const search of ['Ångström', 'angst', 'ANGSTROM runner']) {
      const found = await older(`eventId=${big.id}&search=${encodeURIComponent(search)}&_limit=${LIMIT}`);
      expect(idsOf(found.result.body.data), search).toEqual([target.id]);
      expect(found.result.body.totalCount, search).toBe(1);
      // The word's index entries and the ticket: no read of the event's 10,000.
      expect(found.reads.itemsRead, search).toBeLessThanOrEqual(5);
    }
    const nobody = await older(`eventId=${big.id}&search=nobody-holds-this&_limit=${LIMIT}`);
    expect(nobody.result.body).toMatchObject({ totalCount: 0, data: [], next: null });
    expect(nobody.reads.itemsRead).toBeLessThanOrEqual(2);
  });

  it('a common word pages through every holder exactly once, by next, at the cost of the page', async () => {
    // `runner` is every ticket's first name: walk the first 300 and check each page's cost.
    const seen: number[] = [];
    let query = `eventId=${big.id}&search=runner&_limit=100`;
    for (let page = 0; page < 3; page++) {
      const { result, reads } = await older(query);
      expect(result.body.count).toBe(100);
      expect(reads.itemsRead).toBeLessThanOrEqual(100 + 1 + 100 + 1);
      seen.push(...idsOf(result.body.data));
      query = `eventId=${big.id}&search=runner&_limit=100&_cursor=${result.body.next}`;
    }
    expect(new Set(seen).size).toBe(300);
  });
});
