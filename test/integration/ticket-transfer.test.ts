import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_GRANTS_PER_TYPE } from '#shared/events/domain/event';
import { listCustomerTickets, readTicketRecord } from '#shared/tickets/data/ticket-records';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { checkIn, oneTicket, readStats, soldOf, SYSTEM, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';

let token: string;

beforeAll(async () => {
  token = await adminToken();
});

/** A transfer, then its two tickets handed to the stream's consumer (their list entries and positions are its writes). */
async function transfer(id: number, body: unknown) {
  const response = await call('POST', `${TICKETS}/${id}/transfer`, { token, body });
  if (response.status === 200) await listsCaughtUp([id, Number(response.body.data.id)]);
  return response;
}

describe('POST /tickets/{id}/transfer', () => {
  it('moves a ticket to another type of its event: new ticket and barcode, original transferred, sold moves', async () => {
    const { event, ga, vip, ticket } = await oneTicket();
    const response = await transfer(ticket.id, { typeId: vip.id, attendee: { partyMember: 'Nadia' } });
    expect(response.status).toBe(200);
    const moved = response.body.data;
    expect(moved).toMatchObject({
      eventId: event.id,
      typeId: vip.id,
      processState: PROCESS_STATE.active,
      transferState: 'none',
      transferredFrom: ticket.id,
      partyMember: 'Nadia',
    });
    expect(moved.id).not.toBe(ticket.id);
    expect(moved.barcode).not.toBe(ticket.barcode);
    expect(await readTicketRecord(ticket.id)).toMatchObject({ transferState: 'transferred', transferredTo: moved.id });
    expect(await soldOf(event.id)).toEqual(
      new Map([
        [ga.id, 0],
        [vip.id, 1],
      ]),
    );
    expect(await readStats(token, event.id)).toMatchObject({ soldTickets: 1 });
    expect((await call('GET', `${TICKETS}/${moved.id}`, { token })).body.data).toEqual(moved);
    // The original can no longer be scanned or transferred.
    expect((await checkIn(token, ticket.id)).body.reason).toBe('transferred');
    expect((await transfer(ticket.id, { typeId: ga.id })).body.reason).toBe('transferred');
  });

  it("keeps a customer's ticket on their account, with its order and wave, when it moves to another type", async () => {
    const customerId = 880_000 + Math.floor(Math.random() * 100_000);
    const event = await seedEvent({
      waveTimes: [{ name: 'Wave A', startTime: '2027-06-01T08:00:00Z', capacity: 100 }],
    });
    const order = await placeOrder(event, customerId, [event.ticketTypes[0]!.id]);
    const [original] = order.ticketIds;
    const moved = await transfer(original!, { typeId: event.ticketTypes[1]!.id });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      customerId,
      orderId: order.id,
      waveTimeId: order.waveTimeId,
      transferredFrom: original,
    });
    expect(order.waveTimeId).not.toBeNull();
    const held = await listCustomerTickets(customerId, { limit: 10, offset: 0 });
    // Like the event's list, the account keeps the transferred original (shown as transferred) beside its replacement.
    expect(held.items.map((ticket) => [ticket.id, ticket.transferState])).toEqual([
      [original, 'transferred'],
      [moved.body.data.id, 'none'],
    ]);
  });

  it("moves a ticket to another event, moving sold between the events' statistics", async () => {
    const from = await seedEvent();
    const to = await seedEvent({ timezone: 'Australia/Sydney' });
    const [ticket] = await seedTickets(from, from.ticketTypes[0]!.id, 1);
    const response = await transfer(ticket!.id, { eventId: to.id, typeId: to.ticketTypes[0]!.id });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ eventId: to.id, typeId: to.ticketTypes[0]!.id, attendeeQuestions: [] });
    expect(await readStats(token, from.id)).toMatchObject({ soldTickets: 0 });
    expect(await readStats(token, to.id)).toMatchObject({ soldTickets: 1 });
    expect((await call('GET', `${TICKETS}?event=${to.id}`, { token })).body.data).toHaveLength(1);
  });

  it('refuses a sold-out type with 409 sold_out and changes nothing', async () => {
    const event = await seedEvent({
      ticketTypes: [
        { name: 'GA', price: 10, total: 10 },
        { name: 'Tiny', price: 99, total: 1 },
      ],
    });
    const [ga, tiny] = event.ticketTypes;
    const [first, second] = await seedTickets(event, ga!.id, 2);
    expect((await transfer(first!.id, { typeId: tiny!.id })).status).toBe(200);
    const refused = await transfer(second!.id, { typeId: tiny!.id });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('sold_out');
    expect(await readTicketRecord(second!.id)).toMatchObject({ transferState: 'none', typeId: ga!.id });
    expect(await soldOf(event.id)).toEqual(
      new Map([
        [ga!.id, 1],
        [tiny!.id, 1],
      ]),
    );
  });

  it('updates attendee fields in place when neither event nor type changes', async () => {
    const { ga, ticket } = await oneTicket();
    const response = await transfer(ticket.id, {
      typeId: ga.id,
      attendee: { partyMember: 'Iris', partyMemberLastName: 'Vale', emailAddress: 'iris@example.test' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: ticket.id,
      partyMember: 'Iris',
      partyMemberLastName: 'Vale',
      transferState: 'none',
    });
    expect((await transfer(ticket.id, { attendee: { partyMemberCompany: 'Acme' } })).body.data).toMatchObject({
      id: ticket.id,
      partyMemberCompany: 'Acme',
    });
  });

  it.each([
    ['checked_in', async (id: number) => void (await checkIn(token, id))],
    [
      'cancelled',
      async (id: number) => void (await changeTicketStates(id, { processState: PROCESS_STATE.cancelled }, SYSTEM)),
    ],
    ['withdrawn', async (id: number) => void (await changeTicketStates(id, { withdrawnState: 'withdrawn' }, SYSTEM))],
    ['deleted', async (id: number) => void (await changeTicketStates(id, { deleted: 1 }, SYSTEM))],
  ])('refuses to transfer a %s ticket with 409', async (reason, prepare) => {
    const { event, ga, vip, ticket } = await oneTicket();
    await prepare(ticket.id);
    const refused = await transfer(ticket.id, { typeId: vip.id });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe(reason);
    expect(await soldOf(event.id)).toEqual(
      new Map([
        [ga.id, reason === 'checked_in' ? 1 : 0],
        [vip.id, 0],
      ]),
    );
  });

  it('keeps access-package scans on the replacement: away and back, a scanned event stays scanned and the counts stay exact', async () => {
    const b = await seedEvent({ title: 'Festival day 2' });
    const c = await seedEvent({ title: 'Festival day 3' });
    const a = await seedEvent({
      ticketTypes: [
        { name: 'Day 1', price: 40, total: 10 },
        { name: 'Weekend pass', price: 70, total: 10, grants: [b.id, c.id] },
      ],
    });
    const [dayType, passType] = a.ticketTypes.map((type) => type.id);
    const [pass] = await seedTickets(a, passType!, 1);
    expect((await checkIn(token, pass!.id, { event: b.id })).status).toBe(200);
    const firstScan = (await readTicketRecord(pass!.id))!.accessScans[String(b.id)]!.scannedTimestamp;

    const away = await transfer(pass!.id, { typeId: dayType! });
    expect(away.status).toBe(200);
    const back = await transfer(away.body.data.id, { typeId: passType! });
    expect(back.status).toBe(200);
    const replacement = back.body.data.id;
    expect(await readTicketRecord(replacement)).toMatchObject({
      accessScans: { [String(b.id)]: { eventId: b.id, scannedTimestamp: firstScan } },
    });

    const again = await checkIn(token, replacement, { event: b.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ reason: 'already_checked_in', firstScannedTimestamp: firstScan });
    expect((await checkIn(token, replacement, { event: c.id })).status).toBe(200);
    expect((await checkIn(token, replacement, { event: c.id })).body.reason).toBe('already_checked_in');
    // One holder, admitted once at b and once at c: the transfers moved the admission, never doubled or dropped it.
    expect(await readStats(token, b.id)).toMatchObject({ soldTickets: 0, checkedInTickets: 1 });
    expect(await readStats(token, c.id)).toMatchObject({ soldTickets: 0, checkedInTickets: 1 });
    expect(await readStats(token, a.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 0 });
    expect(await readStats(token, a.id, b.id, c.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 1 });
    expect(await soldOf(a.id)).toEqual(
      new Map([
        [dayType, 0],
        [passType, 1],
      ]),
    );
  });

  it(`handles the widest access package (${MAX_GRANTS_PER_TYPE} granted events) in one transaction per change, and refuses a wider one`, async () => {
    const granted = await Promise.all(Array.from({ length: MAX_GRANTS_PER_TYPE }, () => seedEvent()));
    const grants = granted.map((event) => event.id);
    const a = await seedEvent({
      ticketTypes: [
        { name: 'Day 1', price: 40, total: 10 },
        { name: 'Season pass', price: 400, total: 10, grants },
      ],
    });
    const [dayType, passType] = a.ticketTypes.map((type) => type.id);
    // Held by a customer: the new ticket of each transfer moves the customer's count and list positions too.
    const [pass] = await seedTickets(a, passType!, 1, { customerId: (await newCustomer()).id });
    const last = grants.at(-1)!;
    expect((await checkIn(token, pass!.id, { event: last, key: `widest-${pass!.id}` })).status).toBe(200);
    const away = await transfer(pass!.id, { typeId: dayType! });
    expect(away.status).toBe(200);
    const back = await transfer(away.body.data.id, { typeId: passType! });
    expect(back.status).toBe(200);
    expect(await readStats(token, last)).toMatchObject({ soldTickets: 0, checkedInTickets: 1 });
    expect(await readStats(token, a.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 0 });
    expect((await call('DELETE', `${TICKETS}/${back.body.data.id}`, { token })).status).toBe(204);
    expect(await readStats(token, last, a.id)).toMatchObject({ soldTickets: 0, checkedInTickets: 0 });
    await expect(
      seedEvent({ ticketTypes: [{ name: 'Too wide', price: 1, total: 1, grants: [...grants, a.id + 1_000_000] }] }),
    ).rejects.toThrow(`at most ${MAX_GRANTS_PER_TYPE} other events`);
  });

  it('refuses a bad body: unknown type, type of another event, event without type, unknown fields', async () => {
    const { event, vip, ticket } = await oneTicket();
    const other = await seedEvent();
    expect((await transfer(ticket.id, { typeId: 987_654_321 })).status).toBe(400);
    expect((await transfer(ticket.id, { eventId: event.id, typeId: other.ticketTypes[0]!.id })).status).toBe(400);
    expect((await transfer(ticket.id, { eventId: other.id })).status).toBe(400);
    expect((await transfer(ticket.id, { typeId: vip.id, colour: 'red' })).status).toBe(400);
    expect((await transfer(987_654_321, { typeId: vip.id })).status).toBe(404);
  });
});
