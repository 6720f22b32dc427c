import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '#shared/clock';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { transferTicket } from '#shared/tickets/use-cases/transfer-ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { accessFixture, oneTicket, readStats, SYSTEM } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

const SCANS = '/api/v2/scans';
const SCANNER_ID = 484_848;
let token: string;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read'], SCANNER_ID);
});
afterEach(resetClock);

/** After seeding: the gate opens a quarter of an hour later, so a scan minutes ago is after its ticket was made. */
const doorsOpen = () => advanceClock(15 * 60_000);

/** A scan made `secondsAgo` seconds before now (the one clock) on `deviceId`. */
const scanOf = (barcode: string, { secondsAgo = 1, deviceId = 'gate-1' } = {}) => ({
  id: randomUUID(),
  barcode,
  scannedAt: new Date(now().getTime() - secondsAgo * 1000).toISOString(),
  deviceId,
});
type Scan = ReturnType<typeof scanOf>;
const upload = (eventId: number, scans: Scan[], as = token) =>
  call('POST', SCANS, { token: as, body: { eventId, scans } });

describe('POST /scans', () => {
  it('admits a ticket by its barcode in one round trip, with the scan time, device and administrator on its scan record', async () => {
    const { event, ticket } = await oneTicket();
    doorsOpen();
    const scan = scanOf(ticket.barcode, { secondsAgo: 30, deviceId: 'north-3' });
    const response = await upload(event.id, [scan]);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ id: scan.id, result: 'admitted', ticketId: ticket.id }]);

    const record = (await readTicketRecord(ticket.id))!;
    expect(record.processState).toBe(PROCESS_STATE.checkedIn);
    expect(record.checkIn).toMatchObject({
      scannedTimestamp: scan.scannedAt,
      adminId: SCANNER_ID,
      deviceId: 'north-3',
    });
    // The change itself is stamped when it reached the server, after the scan.
    expect(record.updated > scan.scannedAt).toBe(true);
    const [kept] = await listScans(ticket.id);
    expect(kept).toEqual({
      eventId: event.id,
      adminId: SCANNER_ID,
      outcome: 'admitted',
      scannedTimestamp: scan.scannedAt,
      deviceId: 'north-3',
      scanId: scan.id,
      uploadedAt: record.updated,
    });
    expect(await readStats(token, event.id)).toEqual({ eventIds: [event.id], soldTickets: 1, checkedInTickets: 1 });
  });

  it('answers a batch scan by scan in order, with every refusal reason of the check-in route and the gate’s own', async () => {
    const { a, b, dayType, passType } = await accessFixture();
    const [fine, twice, cancelled, transferred, withdrawn] = await seedTickets(a, dayType, 5);
    const [pass] = await seedTickets(a, passType, 1);
    await changeTicketStates(cancelled!.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);
    await transferTicket(transferred!.id, { typeId: passType }, SYSTEM);
    await changeTicketStates(withdrawn!.id, { withdrawnState: 'withdrawn' }, SYSTEM);
    doorsOpen();

    const first = scanOf(twice!.barcode, { secondsAgo: 120, deviceId: 'east-1' });
    const scans = [
      scanOf(fine!.barcode),
      first,
      scanOf(twice!.barcode, { secondsAgo: 60, deviceId: 'east-2' }),
      scanOf(cancelled!.barcode),
      scanOf(transferred!.barcode),
      scanOf(withdrawn!.barcode),
      scanOf('NO-SUCH-BARCODE-48'),
      { ...scanOf(fine!.barcode), scannedAt: new Date(now().getTime() + 10 * 60_000).toISOString() },
      { ...scanOf(fine!.barcode), scannedAt: new Date(now().getTime() - 73 * 3_600_000).toISOString() },
    ];
    const response = await upload(a.id, scans);
    expect(response.status).toBe(200);
    expect(response.body.data.map((result: { result: string }) => result.result)).toEqual([
      'admitted',
      'admitted',
      'already_checked_in',
      'cancelled',
      'transferred',
      'withdrawn',
      'unknown_barcode',
      'invalid',
      'invalid',
    ]);
    expect(response.body.data.map((result: { id: string }) => result.id)).toEqual(scans.map((scan) => scan.id));
    expect(response.body.data[2]).toEqual({
      id: scans[2]!.id,
      result: 'already_checked_in',
      ticketId: twice!.id,
      firstAdmission: { scannedAt: first.scannedAt, deviceId: 'east-1', adminId: SCANNER_ID },
    });
    expect(response.body.data[7].message).toMatch(/future/);
    expect(response.body.data[8].message).toMatch(/72 hours/);
    // Refused scans are kept on their tickets; invalid ones change nothing.
    expect((await listScans(cancelled!.id)).map((scan) => scan.outcome)).toEqual(['cancelled']);
    expect((await listScans(fine!.id)).map((scan) => scan.outcome)).toEqual(['admitted']);

    // At the event its type grants: the pass admits by an access-package scan, a day ticket is not valid.
    const atB = await upload(b.id, [scanOf(pass!.barcode), scanOf(fine!.barcode), scanOf(pass!.barcode)]);
    expect(atB.body.data.map((result: { result: string }) => result.result)).toEqual([
      'admitted',
      'not_valid_for_event',
      'already_checked_in',
    ]);
    const passRecord = (await readTicketRecord(pass!.id))!;
    expect(passRecord.processState).toBe(PROCESS_STATE.active);
    expect(passRecord.accessScans[String(b.id)]).toMatchObject({ adminId: SCANNER_ID, deviceId: 'gate-1' });
    expect((await readStats(token, a.id)).checkedInTickets).toBe(2);
    expect((await readStats(token, b.id)).checkedInTickets).toBe(1);
  });

  it('answers a resent upload with its first results and records nothing twice', async () => {
    const event = await seedEvent();
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 4);
    doorsOpen();
    const scans = [...tickets.map((ticket) => scanOf(ticket.barcode)), scanOf(tickets[0]!.barcode), scanOf('NOPE-48')];
    const first = await upload(event.id, scans);
    expect(first.status).toBe(200);
    // The device resends its whole log, and then a part of it in another order.
    const again = await upload(event.id, scans);
    expect(again.body).toEqual(first.body);
    const part = await upload(event.id, [scans[4]!, scans[1]!]);
    expect(part.body.data).toEqual([first.body.data[4], first.body.data[1]]);
    for (const ticket of tickets) expect((await listScans(ticket.id)).length).toBe(ticket === tickets[0] ? 2 : 1);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(4);
  });

  it('admits once when two devices upload the same ticket’s offline scans at once: the first to arrive, with its own scan time', async () => {
    const event = await seedEvent();
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 6);
    doorsOpen();
    const logOf = (deviceId: string, offset: number) =>
      tickets.map((ticket) => scanOf(ticket.barcode, { secondsAgo: 600 - offset, deviceId }));
    const [west, east] = [logOf('west', 0), logOf('east', 5)];
    const [fromWest, fromEast] = await Promise.all([upload(event.id, west), upload(event.id, east)]);
    expect([fromWest.status, fromEast.status]).toEqual([200, 200]);
    for (const [i, ticket] of tickets.entries()) {
      const outcomes = [fromWest.body.data[i], fromEast.body.data[i]];
      const admitted = outcomes.filter((outcome) => outcome.result === 'admitted');
      expect(admitted).toHaveLength(1);
      const winner = admitted[0]!.id === west[i]!.id ? west[i]! : east[i]!;
      const loser = outcomes.find((outcome) => outcome.result !== 'admitted');
      expect(loser).toMatchObject({
        result: 'already_checked_in',
        firstAdmission: { scannedAt: winner.scannedAt, deviceId: winner.deviceId, adminId: SCANNER_ID },
      });
      expect((await readTicketRecord(ticket.id))!.checkIn!.scannedTimestamp).toBe(winner.scannedAt);
      const kept = await listScans(ticket.id);
      expect(kept.map((scan) => scan.outcome).sort()).toEqual(['admitted', 'already_checked_in']);
      expect(new Set(kept.map((scan) => scan.deviceId))).toEqual(new Set(['west', 'east']));
    }
    expect((await readStats(token, event.id)).checkedInTickets).toBe(tickets.length);
  });

  it('answers a ticket outside a scoped scanner’s events as an unknown barcode, telling and recording nothing about it', async () => {
    const { event: mine } = await oneTicket();
    const { ticket: theirs } = await oneTicket();
    doorsOpen();
    const scoped = await adminToken(['checkin:scan'], SCANNER_ID + 1, { eventScope: [mine.id] });
    const scan = scanOf(theirs.barcode);
    const response = await upload(mine.id, [scan], scoped);
    expect(response.body.data).toEqual([{ id: scan.id, result: 'unknown_barcode' }]);
    expect(await listScans(theirs.id)).toEqual([]);
    expect((await readTicketRecord(theirs.id))!.processState).toBe(PROCESS_STATE.active);
  });

  it('refuses a scan from before its ticket existed as invalid, keeping nothing of it', async () => {
    const { event, ticket } = await oneTicket();
    doorsOpen();
    const early = scanOf(ticket.barcode, { secondsAgo: 20 * 60 });
    const response = await upload(event.id, [early]);
    expect(response.body.data).toEqual([{ id: early.id, result: 'invalid', message: expect.stringMatching(/before/) }]);
    expect(await listScans(ticket.id)).toEqual([]);
    expect((await readTicketRecord(ticket.id))!.processState).toBe(PROCESS_STATE.active);
  });

  it('refuses a scan id already used for another scan as invalid', async () => {
    const { event, ticket } = await oneTicket();
    doorsOpen();
    const scan = scanOf(ticket.barcode);
    await upload(event.id, [scan]);
    const reused = await upload(event.id, [{ ...scan, barcode: 'OTHER-48' }]);
    expect(reused.body.data).toEqual([{ id: scan.id, result: 'invalid', message: expect.stringMatching(/scan id/) }]);
  });
});

describe('POST /scans refuses what it cannot take, changing nothing', () => {
  it.each([
    ['no scans', () => []],
    ['501 scans', (barcode: string) => Array.from({ length: 501 }, () => scanOf(barcode))],
    ['a barcode over 100 characters', () => [scanOf('X'.repeat(101))]],
    ['a scan id that is not a UUID', (barcode: string) => [{ ...scanOf(barcode), id: 'scan-1' }]],
    [
      'a scan id twice in one batch',
      (barcode: string) => {
        const scan = scanOf(barcode);
        return [scan, { ...scan, id: scan.id.toUpperCase() }];
      },
    ],
    ['a scan time that is not a date-time', (barcode: string) => [{ ...scanOf(barcode), scannedAt: 'yesterday' }]],
    ['a nil scan id', (barcode: string) => [{ ...scanOf(barcode), id: '00000000-0000-0000-0000-000000000000' }]],
    ['a deviceId with a right-to-left override', (barcode: string) => [{ ...scanOf(barcode), deviceId: 'a\u202eb' }]],
    ['a gate with markup', (barcode: string) => [{ ...scanOf(barcode), gate: '<img src=x>' }]],
    ['a deviceId over 40 bytes', (barcode: string) => [{ ...scanOf(barcode), deviceId: 'd'.repeat(41) }]],
  ])('%s: 400', async (_, scans) => {
    const { event, ticket } = await oneTicket();
    const response = await upload(event.id, scans(ticket.barcode) as Scan[]);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(await listScans(ticket.id)).toEqual([]);
    expect((await readTicketRecord(ticket.id))!.processState).toBe(PROCESS_STATE.active);
  });

  it('answers 404 for an event outside the scanner’s scope or unknown, and scans nothing', async () => {
    const { event, ticket } = await oneTicket();
    const elsewhere = await adminToken(['checkin:scan'], SCANNER_ID + 2, { eventScope: [event.id + 1_000_000] });
    expect((await upload(event.id, [scanOf(ticket.barcode)], elsewhere)).status).toBe(404);
    expect((await upload(987_654_321, [scanOf(ticket.barcode)])).status).toBe(404);
    expect(await listScans(ticket.id)).toEqual([]);
  });
});
