import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Ticket, TicketRecord } from '#shared/tickets/domain/ticket';
import { shardOf, STATS_SHARDS } from '#shared/tickets/data/stats-shards';
import { seedEvent } from '../support/factories/tickets.ts';
import { getPage } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * A purchase range of one ticket type (`typeId`, with or without `eventId`): read from the
 * type's own purchase list, so a rare type's few sales among many of another type come back
 * whole, in purchase order, reading only them.
 */
const LIST = '/api/v2/ticket';
const iso = (ms: number) => new Date(ms).toISOString();
const T = Date.UTC(2031, 0, 1);
/** More sales of the common type than one request reads (MAX_LIST_READ). */
const COMMON_SALES = 1100;

let token: string;
let event: CreatedEvent;
let rare: TicketRecord[];

const page = (query: string) => getPage<Ticket>(`${LIST}?${query}`, token);
const ids = (tickets: { id: number }[]) => tickets.map((ticket) => ticket.id);

beforeAll(async () => {
  token = await adminToken(['tickets:read'], 717_501);
  event = await seedEvent();
  const [common, rareType] = event.ticketTypes;
  await writeTickets(event, COMMON_SALES, (n) => ({ typeId: common!.id, purchasedDate: iso(T + n * 1000) }));
  // Bought in the middle of the common sales and after them, out of id order.
  const offsets = [1_150_500, 500_500, 1_160_000];
  const written = await writeTickets(event, 3, (n) => ({ typeId: rareType!.id, purchasedDate: iso(T + offsets[n]!) }));
  rare = [written[1]!, written[0]!, written[2]!];
}, 120_000);

describe('GET /ticket with typeId and a purchase range', () => {
  it("answers exactly the type's tickets in purchase order, reading only them from the type's purchase list", async () => {
    const typeId = event.ticketTypes[1]!.id;
    const query = `eventId=${event.id}&typeId=${typeId}&purchasedFrom=${iso(T)}`;
    const { body: all, reads } = await boundedGet(`${LIST}?${query}`, token);
    expect(ids(all.data)).toEqual(ids(rare));
    expect([all.totalCount, all.next, all.totalCountIsEstimate]).toEqual([3, null, undefined]);
    // Its three entries from the type's purchase list and their tickets, and beside them the type's month and the
    // start's day counts, a Query of each shard (a count item in each shard holding one of its three): none of the
    // other type's 1,100.
    expect(reads.byCommand.QueryCommand).toBe(1 + 2 * STATS_SHARDS);
    const shards = new Set(rare.map((ticket) => shardOf(ticket.id))).size;
    expect(reads.itemsRead).toBe(3 + 3 + 2 * shards);

    // The type alone finds its event (one more Query, of one item); a closed range, and walked by `next`.
    const closed = await page(`typeId=${typeId}&purchasedFrom=${iso(T)}&purchasedTo=${iso(T + 1_155_000)}`);
    expect(ids(closed.data)).toEqual(ids(rare.slice(0, 2)));
    const first = await page(`typeId=${typeId}&purchasedFrom=${iso(T)}&_limit=2`);
    const rest = await page(`typeId=${typeId}&purchasedFrom=${iso(T)}&_limit=2&_cursor=${first.next}`);
    expect([...ids(first.data), ...ids(rest.data)]).toEqual(ids(rare));
    expect(rest.next).toBeNull();
    // Another event's id with the type: nothing (the type's tickets are all of its own event).
    const elsewhere = await page(`eventId=${event.id + 1_000_000}&typeId=${typeId}&purchasedFrom=${iso(T)}`);
    expect(elsewhere.data).toEqual([]);
  });

  it("counts the type's purchases: an exact totalCount past 1,000 and any _offset, found from the type's purchase counts", async () => {
    const [common, rareType] = event.ticketTypes;
    const query = `typeId=${common!.id}&purchasedFrom=${iso(T)}`;
    const first = await page(`${query}&_limit=20`);
    expect([first.totalCount, first.totalCountIsEstimate]).toEqual([COMMON_SALES, undefined]);
    // A page 95 % in: the same tickets as walking there (bought one a second, in id order), reading a few of them.
    const { body: deep, reads } = await boundedGet(`${LIST}?${query}&_offset=1050&_limit=20`, token);
    const walked = ids(first.data)[0]!;
    expect(ids(deep.data)).toEqual(Array.from({ length: 20 }, (_, n) => walked + 1050 + n));
    expect(deep.totalCount).toBe(COMMON_SALES);
    // The page's entries and tickets, and the type's month, hour and minute counts in each shard.
    expect(reads.itemsRead).toBeLessThan(100 + 3 * STATS_SHARDS);
    const closed = await page(`${query}&purchasedTo=${iso(T + 99_500)}&_offset=90`);
    expect([closed.totalCount, ids(closed.data)]).toEqual([100, Array.from({ length: 10 }, (_, n) => walked + 90 + n)]);
    // The rare type's third sale, by its offset.
    const third = await page(`eventId=${event.id}&typeId=${rareType!.id}&purchasedFrom=${iso(T)}&_offset=2`);
    expect([third.totalCount, ids(third.data)]).toEqual([3, [rare[2]!.id]]);
  });
});
