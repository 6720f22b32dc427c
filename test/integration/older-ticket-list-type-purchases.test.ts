import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import type { CreatedEvent } from '#shared/domain/event';
import type { Ticket, TicketRecord } from '#shared/domain/ticket';
import { backfillTicketLists } from '../../bin/maintenance/backfill-ticket-lists.ts';
import { seedEvent } from '../../bin/seed/tickets.ts';
import { call, getPage } from '../support/api.ts';
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
  { step: 'initialize', name: 'typePurchasesItemCounter' },
);

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
    queries = 0;
    itemsRead = 0;
    const all = await page(`eventId=${event.id}&typeId=${typeId}&purchasedFrom=${iso(T)}`);
    expect(ids(all.data)).toEqual(ids(rare));
    expect([all.totalCount, all.next, all.totalCountIsEstimate]).toEqual([3, null, undefined]);
    expect([queries, itemsRead]).toEqual([1, 3]);

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
    itemsRead = 0;
    const after = await page(query);
    expect(ids(after.data)).toEqual(ids(rare));
    expect(itemsRead).toBe(3);
  }, 120_000);
});
