import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import type { CreatedEvent } from '#shared/domain/event';
import { MAX_LIST_READ } from '#shared/domain/older-ticket-list';
import { backfillCustomerTicketCounts } from '../../bin/maintenance/backfill-customer-ticket-counts.ts';
import { seedEvent } from '../../bin/seed/tickets.ts';
import { call, getPage, idsOf } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { checkIn } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `GET /ticket?customerId=` for a customer past the MAX_LIST_READ items one request reads:
 * `totalCount` from the customer's kept count, exact on every page, a page at or past the
 * end empty; a deeper `_offset` inside the list is still a 400 naming `_cursor`, and the
 * cursor walks every ticket once.
 */
const LIST = '/api/v2/ticket';
let token: string;
let buyer: number;
let other: number;
let marathon: CreatedEvent;
let expo: CreatedEvent;
/** The buyer's live tickets, in id order (the list's order), and those of the expo. */
let held: number[];
let heldAtExpo: number[];

beforeAll(async () => {
  token = await adminToken(['tickets:read', 'tickets:write', 'checkin:scan'], 717_501);
  [buyer, other] = [(await newCustomer()).id, (await newCustomer()).id];
  [marathon, expo] = await Promise.all([
    seedEvent({ title: 'Club marathon', ticketTypes: [{ name: 'Marathon', price: 50, total: 2000 }] }),
    seedEvent({ title: 'Club expo', ticketTypes: [{ name: 'Expo', price: 5, total: 2000 }] }),
  ]);
  const race = await writeTickets(marathon, 700, () => ({ typeId: marathon.ticketTypes[0]!.id, customerId: buyer }));
  const fair = await writeTickets(expo, 500, () => ({ typeId: expo.ticketTypes[0]!.id, customerId: buyer }));
  await writeTickets(expo, 30, () => ({ typeId: expo.ticketTypes[0]!.id, customerId: other }));
  const inIdOrder = (records: { id: number }[]) => records.map((record) => record.id).sort((a, b) => a - b);
  held = inIdOrder([...race, ...fair]);
  heldAtExpo = inIdOrder(fair);
}, 120_000);

const page = (query: string, as = token) => getPage(`${LIST}?customerId=${buyer}&${query}`, as);

/** Every page by `next` from the first: the ids in order and each page's total. */
async function walk(): Promise<{ ids: number[]; totals: Set<number> }> {
  const ids: number[] = [];
  const totals = new Set<number>();
  let query = '_limit=100';
  for (let pages = 0; pages < 50; pages += 1) {
    const answer = await page(query);
    ids.push(...idsOf(answer));
    totals.add(answer.totalCount);
    expect(answer.totalCountIsEstimate).toBeUndefined();
    if (!answer.next) return { ids, totals };
    query = `_limit=100&_cursor=${answer.next}`;
  }
  throw new Error('more than 50 pages');
}

describe('GET /ticket?customerId= past one read', () => {
  it('answers the exact total on every page, each ticket once by `next`, and an empty page at or past the end', async () => {
    expect(held.length).toBeGreaterThan(MAX_LIST_READ);
    const { ids, totals } = await walk();
    expect(ids).toEqual(held);
    expect([...totals]).toEqual([held.length]);

    const middle = await page('_offset=850&_limit=100');
    expect(idsOf(middle)).toEqual(held.slice(850, 950));
    for (const offset of [held.length, held.length + 5000]) {
      const past = await page(`_offset=${offset}`);
      expect(past).toMatchObject({ totalCount: held.length, data: [], next: null });
      expect(past.totalCountIsEstimate).toBeUndefined();
    }
    // Inside the list but past one read: a 400 naming the cursor, never a short page.
    const deep = await call('GET', `${LIST}?customerId=${buyer}&_offset=1000&_limit=100`, { token });
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({ path: 'query._offset', message: expect.stringContaining('_cursor') });
    // Another customer's count is their own.
    expect((await getPage(`${LIST}?customerId=${other}`, token)).totalCount).toBe(30);
  });

  it('moves the count with a delete through the API; a check-in leaves it as it was', async () => {
    const [gone, scanned] = [held[10]!, held[11]!];
    expect((await call('DELETE', `/api/v2/tickets/${gone}`, { token })).status).toBe(204);
    expect((await checkIn(token, scanned)).status).toBe(200);
    held = held.filter((id) => id !== gone);
    const stored = await db.send(new GetCommand({ TableName: tableName(), Key: keys.customerTicketCount(buyer) }));
    expect(stored.Item).toMatchObject({ n: held.length, kept: true });
    expect((await page('_limit=5')).totalCount).toBe(held.length);
  });

  it("a caller scoped to one event sees that event's tickets, counted from the read (not the customer's count, of every event)", async () => {
    const scoped = await adminToken(['tickets:read'], 717_502, { eventScope: [expo.id] });
    const answer = await page('_limit=100', scoped);
    // The read stops at 1,000 of the customer's entries, 699 of them the marathon's: a lower bound, flagged.
    expect(answer).toMatchObject({ totalCountIsEstimate: true, totalCount: MAX_LIST_READ - 699 });
    expect(idsOf(answer)).toEqual(heldAtExpo.slice(0, 100));
  });

  it('an account made before the counts: totals flagged past one read until the backfill recounts, idempotent and resumable', async () => {
    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.customerTicketCount(buyer) }));
    const before = await page('_limit=10');
    expect(before).toMatchObject({ totalCountIsEstimate: true });
    expect(before.totalCount).toBeLessThan(held.length);

    const run = randomUUID();
    const seen: string[] = [];
    const first = await backfillCustomerTicketCounts({
      customers: [buyer, other],
      run,
      progress: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(first).toEqual({ customers: 2, tickets: held.length + 30 });
    expect(seen).toEqual(['1/2', '2/2']);
    const after = await page('_limit=10');
    expect(after.totalCount).toBe(held.length);
    expect(after.totalCountIsEstimate).toBeUndefined();
    // Resumes after its checkpoint (nothing left); a restart recounts to the same.
    expect(await backfillCustomerTicketCounts({ customers: [buyer, other], run })).toEqual({
      customers: 0,
      tickets: 0,
    });
    expect(await backfillCustomerTicketCounts({ customers: [buyer, other], run, restart: true })).toEqual(first);
    expect((await page('_limit=10')).totalCount).toBe(held.length);
  });
});
