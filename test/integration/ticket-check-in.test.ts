import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { transferTicket } from '#shared/tickets/use-cases/transfer-ticket';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { accessFixture, checkIn, oneTicket, readStats, SYSTEM, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

let token: string;
const SCANNER_ID = 424_242;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read'], SCANNER_ID);
});

describe('POST /tickets/{id}/check-in', () => {
  it('admits an active ticket, answers it as GET does, records the scan with the administrator, and counts it', async () => {
    const { event, ticket } = await oneTicket();
    const admitted = await checkIn(token, ticket.id);
    expect(admitted.status).toBe(200);
    expect(admitted.body.data).toMatchObject({ id: ticket.id, processState: PROCESS_STATE.checkedIn });
    const read = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(admitted.body.data).toEqual(read.body.data);

    const scans = await listScans(ticket.id);
    expect(scans).toEqual([
      { eventId: event.id, adminId: SCANNER_ID, outcome: 'admitted', scannedTimestamp: expect.any(String) },
    ]);
    const info = await call('GET', `${TICKETS}/${ticket.id}?_include=checkInInfo`, { token });
    expect(info.body.data.checkInInfo).toEqual({
      scannedTimestamp: scans[0]!.scannedTimestamp,
      scans: [
        { kind: 'simple', eventId: event.id, eventName: event.title, scannedTimestamp: scans[0]!.scannedTimestamp },
      ],
    });
    expect(await readStats(token, event.id)).toEqual({ eventIds: [event.id], soldTickets: 1, checkedInTickets: 1 });
  });

  it('refuses a second scan with 409 already_checked_in and the first scan time, and records the failed scan', async () => {
    const { ticket } = await oneTicket();
    await checkIn(token, ticket.id);
    const again = await checkIn(token, ticket.id);
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toBe('application/problem+json');
    const first = (await readTicketRecord(ticket.id))!.checkIn!.scannedTimestamp;
    expect(again.body).toMatchObject({ status: 409, reason: 'already_checked_in', firstScannedTimestamp: first });
    expect((await listScans(ticket.id)).map((scan) => scan.outcome)).toEqual(['admitted', 'already_checked_in']);
  });

  it('refuses any body with 400 and changes nothing', async () => {
    const { ticket } = await oneTicket();
    const response = await call('POST', `${TICKETS}/${ticket.id}/check-in`, { token, body: { force: true } });
    expect(response.status).toBe(400);
    expect((await readTicketRecord(ticket.id))!.processState).toBe(PROCESS_STATE.active);
  });

  it('answers 404 for an unknown or deleted ticket', async () => {
    expect((await checkIn(token, 987_654_321)).status).toBe(404);
    const { ticket } = await oneTicket();
    await changeTicketStates(ticket.id, { deleted: 1 }, SYSTEM);
    expect((await checkIn(token, ticket.id)).status).toBe(404);
  });

  it.each([
    ['cancelled', (id: number) => changeTicketStates(id, { processState: PROCESS_STATE.cancelled }, SYSTEM)],
    // A transferred original: transferred for real, to the event's other type.
    ['transferred', (id: number, otherType: number) => transferTicket(id, { typeId: otherType }, SYSTEM)],
    ['withdrawn', (id: number) => changeTicketStates(id, { withdrawnState: 'withdrawn' }, SYSTEM)],
  ])('refuses a %s ticket with that reason and records the failed scan', async (reason, change) => {
    const { event, ticket } = await oneTicket();
    await change(ticket.id, event.ticketTypes[1]!.id);
    const refused = await checkIn(token, ticket.id);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe(reason);
    expect(await listScans(ticket.id)).toEqual([expect.objectContaining({ outcome: reason, eventId: event.id })]);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(0);
  });

  it('refuses a ticket scanned at an event it is not valid for (not_valid_for_event)', async () => {
    const { ticket } = await oneTicket();
    const other = await seedEvent();
    const refused = await checkIn(token, ticket.id, { event: other.id });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('not_valid_for_event');
    expect(await listScans(ticket.id)).toEqual([
      expect.objectContaining({ outcome: 'not_valid_for_event', eventId: other.id }),
    ]);
  });

  it('records an access-package scan at a granted event without checking the ticket in at its own event', async () => {
    const { a, b, passType, dayType } = await accessFixture();
    const [pass] = await seedTickets(a, passType, 1);
    const [day] = await seedTickets(a, dayType, 1);

    const atB = await checkIn(token, pass!.id, { event: b.id });
    expect(atB.status).toBe(200);
    expect(atB.body.data.processState).toBe(PROCESS_STATE.active);
    expect((await checkIn(token, pass!.id, { event: b.id })).body.reason).toBe('already_checked_in');
    expect((await checkIn(token, day!.id, { event: b.id })).body.reason).toBe('not_valid_for_event');

    expect(await readStats(token, b.id)).toMatchObject({ soldTickets: 0, checkedInTickets: 1 });
    expect(await readStats(token, a.id)).toMatchObject({ soldTickets: 2, checkedInTickets: 0 });

    expect((await checkIn(token, pass!.id)).status).toBe(200);
    // Counted for both events, but once when both are asked for.
    expect(await readStats(token, a.id)).toMatchObject({ checkedInTickets: 1 });
    expect(await readStats(token, a.id, b.id)).toMatchObject({ soldTickets: 2, checkedInTickets: 1 });

    const info = await call('GET', `${TICKETS}/${pass!.id}?_include=checkInInfo`, { token });
    expect(info.body.data.checkInInfo.scans).toEqual([
      expect.objectContaining({ kind: 'simple', eventId: a.id, eventName: a.title }),
      expect.objectContaining({ kind: 'access_package', eventId: b.id, eventName: b.title }),
    ]);
  });

  it('answers a retry carrying the same Idempotency-Key with the first answer instead of 409', async () => {
    const { event, ticket } = await oneTicket();
    const key = randomUUID();
    const first = await checkIn(token, ticket.id, { key });
    expect(first.status).toBe(200);
    const retry = await checkIn(token, ticket.id, { key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await checkIn(token, ticket.id, { key: randomUUID() })).status).toBe(409);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(1);
  });

  it('refuses an Idempotency-Key reused for another ticket (422, README "Idempotent retries")', async () => {
    const event = await seedEvent();
    const [one, two] = await seedTickets(event, event.ticketTypes[0]!.id, 2);
    const key = randomUUID();
    expect((await checkIn(token, one!.id, { key })).status).toBe(200);
    const reused = await checkIn(token, two!.id, { key });
    expect(reused.status).toBe(422);
    expect(reused.body.reason).toBe('idempotency_key_reused');
    expect((await readTicketRecord(two!.id))!.processState).toBe(PROCESS_STATE.active);
  });

  it('admits a ticket once when 25 scanners race, and counts it once', async () => {
    const { event, ticket } = await oneTicket();
    const answers = await Promise.all(Array.from({ length: 25 }, () => checkIn(token, ticket.id)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(24);
    expect(
      answers.filter((answer) => answer.status === 409).every((answer) => answer.body.reason === 'already_checked_in'),
    ).toBe(true);
    expect(await readStats(token, event.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 1 });
  });

  it('admits an access-package ticket once per event when scanners race at both events', async () => {
    const { a, b, passType } = await accessFixture();
    const [pass] = await seedTickets(a, passType, 1);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, k) => checkIn(token, pass!.id, k % 2 ? { event: b.id } : {})),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(
      answers.filter((answer) => answer.status !== 200).every((answer) => answer.body.reason === 'already_checked_in'),
    ).toBe(true);
    expect(await readStats(token, a.id)).toMatchObject({ checkedInTickets: 1 });
    expect(await readStats(token, b.id)).toMatchObject({ checkedInTickets: 1 });
    expect(await readStats(token, a.id, b.id)).toMatchObject({ checkedInTickets: 1 });
  });
});
