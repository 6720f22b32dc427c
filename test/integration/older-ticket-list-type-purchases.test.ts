import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keyCondition } from '#shared/data/key-conditions';
import { keys } from '#shared/data/keys';
import type { CreatedEvent } from '#shared/domain/event';
import type { Ticket, TicketRecord } from '#shared/domain/ticket';
import { backfillListPositions } from '../../bin/maintenance/migrations/backfill-list-positions.ts';
import { backfillTicketLists } from '../../bin/maintenance/migrations/backfill-ticket-lists.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, getPage } from '../support/api.ts';
import { boundedGet } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * A purchase range of one ticket type (`typeId`, with or without `eventId`): read from the
 * type's own purchase list, so a rare type's few sales among many of another type come back
 * whole, in purchase order, reading only them; before the list backfill marks the event it
 * is the event's purchases with the type on top, where the other type's sales crowd it out
 * of what one request reads (a 400).
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
    // start's day counts and the event's two marks (the list's, the counts'): none of the other type's 1,100.
    expect(reads.byCommand.QueryCommand).toBe(3);
    expect(reads.itemsRead).toBe(3 + 3 + 2 + 2);

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
    expect(reads.itemsRead).toBeLessThan(100);
    const closed = await page(`${query}&purchasedTo=${iso(T + 99_500)}&_offset=90`);
    expect([closed.totalCount, ids(closed.data)]).toEqual([100, Array.from({ length: 10 }, (_, n) => walked + 90 + n)]);
    // The rare type's third sale, by its offset.
    const third = await page(`eventId=${event.id}&typeId=${rareType!.id}&purchasedFrom=${iso(T)}&_offset=2`);
    expect([third.totalCount, ids(third.data)]).toEqual([3, [rare[2]!.id]]);
  });

  it("before the positions backfill (no types' mark) a deep _offset is a 400; the backfill recounts the types' counts as the sales kept them", async () => {
    const typeCounts = async () =>
      (
        await db.send(
          new QueryCommand({
            TableName: tableName(),
            ...keyCondition(keys.eventItems(event.id), { beginsWith: `${keys.purchaseCountsPrefix}type#` }),
          }),
        )
      ).Items ?? [];
    const kept = await typeCounts();
    expect(kept.length).toBeGreaterThan(0);
    for (const item of kept)
      await db.send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.typePurchaseCountsKept(event.id) }));
    const query = `typeId=${event.ticketTypes[0]!.id}&purchasedFrom=${iso(T)}&_offset=1050`;
    expect((await call('GET', `${LIST}?${query}`, { token })).status).toBe(400);

    await backfillListPositions({ events: [event.id], run: `type-purchases-${event.id}`, restart: true });
    expect(await typeCounts()).toEqual(kept);
    expect((await page(query)).totalCount).toBe(COMMON_SALES);
  }, 120_000);

  it("before the list backfill reads the event's purchases (crowded out: 400); the backfill puts the entries in the type's list and marks the event", async () => {
    const typeId = event.ticketTypes[1]!.id;
    // As stored before the release: purchase entries without the type's key, the event unmarked.
    for (const ticket of rare)
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.ticketPurchaseEntry(ticket.id),
          UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        }),
      );
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.typePurchasesKept(event.id) }));
    const query = `eventId=${event.id}&typeId=${typeId}&purchasedFrom=${iso(T)}`;
    expect((await call('GET', `${LIST}?${query}`, { token })).status).toBe(400);

    expect(await backfillTicketLists({ events: [event.id] })).toMatchObject({ entries: COMMON_SALES + 3, marked: 1 });
    const { body: after, reads } = await boundedGet(`${LIST}?${query}`, token);
    expect(ids(after.data)).toEqual(ids(rare));
    expect(reads.itemsRead).toBe(3 + 3 + 2 + 2);
  }, 120_000);
});
