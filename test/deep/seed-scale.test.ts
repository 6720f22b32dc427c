import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { seedScale, type ScaleSeed } from '../../bin/seed/scale.ts';
import { call } from '../support/api.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * `npm run seed`'s bulk loader (bin/seed/scale.ts) at a small size: what it batch-writes
 * must be what the API's own writes would have left, so the lists, their counts, the
 * statistics, a single ticket and a customer's orders all agree with what was seeded.
 */
const BASE = '/api/v2/tickets';
const TICKETS = 500;
let token: string;
let seeded: ScaleSeed;
/** Check-ins the tests themselves made (the tests run in any order): the statistics count them beside the seeded ones. */
let admittedHere = 0;

beforeAll(async () => {
  token = await adminToken();
  seeded = await seedScale({ tickets: TICKETS });
}, 120_000);

const get = async (url: string, as = token) => {
  const response = await call('GET', url, { token: as });
  expect(response.status, response.raw).toBe(200);
  return response.body;
};
const sum = (counts: Record<string, number>, keep: (key: string) => boolean = () => true) =>
  Object.entries(counts).reduce((total, [key, count]) => total + (keep(key) ? count : 0), 0);

describe('npm run seed (bulk loader)', () => {
  it('seeds every state, team, type and an access package, with orders and customers', () => {
    const { byState, byTeam, byType } = seeded.counts;
    expect(sum(byState)).toBe(TICKETS);
    for (const state of [PROCESS_STATE.pending, PROCESS_STATE.active, PROCESS_STATE.checkedIn, PROCESS_STATE.cancelled])
      expect(byState[state]).toBeGreaterThan(0);
    expect(Object.keys(byTeam).length).toBe(seeded.teamIds.length + 1);
    expect(Object.keys(byType).length).toBe(seeded.typeIds.length);
    expect(seeded.accessEventId).not.toBeNull();
    expect(seeded.counts.accessCheckedIn).toBeGreaterThan(0);
    expect(seeded.customers.length).toBeGreaterThan(50);
  });

  it('lists the event with exact totals, alone and under each filter', async () => {
    const { eventId, counts } = seeded;
    const first = await get(`${BASE}?event=${eventId}&_limit=100`);
    expect(first.totalCount).toBe(TICKETS);
    expect(first.data.map((ticket: { id: number }) => ticket.id)).toEqual(
      Array.from({ length: 100 }, (_, i) => seeded.ticketIds.first + i),
    );
    const last = await get(`${BASE}?event=${eventId}&_limit=100&_offset=400`);
    expect(last.data.at(-1).id).toBe(seeded.ticketIds.last);

    const notCancelled = await get(`${BASE}?event=${eventId}&exclude_process_states=4&_limit=1`);
    expect(notCancelled.totalCount).toBe(sum(counts.byState, (state) => state !== String(PROCESS_STATE.cancelled)));
    const [team] = seeded.teamIds;
    expect((await get(`${BASE}?event=${eventId}&teams=0,${team}&_limit=1`)).totalCount).toBe(
      counts.byTeam['0']! + counts.byTeam[String(team)]!,
    );
    const [type] = seeded.typeIds;
    expect((await get(`${BASE}?event=${eventId}&ticket_types=${type}&_limit=1`)).totalCount).toBe(
      counts.byType[String(type)],
    );
  });

  it('answers statistics equal to the seeded states, for the event and through the access package', async () => {
    const stats = await get(`${BASE}/check-in-stats?events=${seeded.eventId}`);
    expect(stats.data).toMatchObject({
      soldTickets: seeded.counts.sold,
      checkedInTickets: seeded.counts.checkedIn + admittedHere,
    });
    const access = await get(`${BASE}/check-in-stats?events=${seeded.accessEventId}`);
    expect(access.data.checkedInTickets).toBe(seeded.counts.accessCheckedIn);
  });

  it('answers a seeded ticket as written, with its history, and a check-in of it moves the counters by one', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => seeded.ticketIds.first + i);
    const records = [...(await readTicketRecords(ids)).values()];
    const open = records.find(
      (record) => record.processState === PROCESS_STATE.active && record.orderId !== null && record.bibNumber,
    )!;
    const ticket = await get(`${BASE}/${open.id}?_include=history`);
    expect(ticket.data).toMatchObject({
      id: open.id,
      eventId: seeded.eventId,
      bibNumber: open.bibNumber,
      processState: PROCESS_STATE.active,
      orderId: open.orderId,
    });
    const checkedIn = records.find((record) => record.processState === PROCESS_STATE.checkedIn)!;
    const refused = await call('POST', `${BASE}/${checkedIn.id}/check-in`, { token });
    expect(refused.body.reason, refused.raw).toBe('already_checked_in');

    expect((await call('POST', `${BASE}/${open.id}/check-in`, { token })).status).toBe(200);
    admittedHere += 1;
    const stats = await get(`${BASE}/check-in-stats?events=${seeded.eventId}`);
    expect(stats.data).toMatchObject({
      soldTickets: seeded.counts.sold,
      checkedInTickets: seeded.counts.checkedIn + 1,
    });
    // The list's count under a state moved too: the seeded counters are ones the write path can move.
    const active = await get(`${BASE}?event=${seeded.eventId}&exclude_process_states=0,2,4&_limit=1`);
    expect(active.totalCount).toBe(seeded.counts.byState[String(PROCESS_STATE.active)]! - 1);
  });

  it("holds each ticket's search entries as the stream's consumer would have left them: found by a word, nothing to catch up", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => seeded.ticketIds.last - i);
    const records = [...(await readTicketRecords(ids)).values()];
    const named = records.find((record) => !record.deleted && record.emailAddress)!;
    // Up to its `@` an address is one whole token: exactly this attendee's.
    const word = `${named.emailAddress!.split('@')[0]}@`;
    const found = await get(`/api/v2/ticket?eventId=${seeded.eventId}&search=${encodeURIComponent(word)}`);
    expect(found.data.map((ticket: { id: number }) => ticket.id)).toEqual([named.id]);
    // The consumer's step over the same tickets reads them and finds every entry already written.
    const caughtUp = await countWrites(() => listsCaughtUp(ids));
    expect(caughtUp.writes.units, describeWrites(caughtUp.writes)).toBe(0);
  });

  it("lists a seeded customer's orders", async () => {
    const customer = seeded.customers.find((entry) => entry.orders > 1) ?? seeded.customers[0]!;
    const orders = await get(
      '/api/v2/my-account/orders?_limit=100&includeTickets=true',
      await customerToken(customer.id),
    );
    expect(orders.totalCount).toBe(customer.orders);
    expect(orders.data.flatMap((order: { tickets?: unknown[] }) => order.tickets ?? []).length).toBe(customer.tickets);
  });
});
