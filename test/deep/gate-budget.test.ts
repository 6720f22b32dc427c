import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '#shared/clock';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import type { ScanResult } from '#shared/gate/domain/gate';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { UPLOAD_BUDGET, uploadScans, type UploadBudget } from '#shared/gate/use-cases/upload-scans';
import { seedEvent } from '../support/factories/tickets.ts';
import { commandsSent } from '../support/command-tally.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { readStats } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `POST /scans` within its budget (shared/gate/use-cases/upload-scans.ts): counted in
 * sequential DynamoDB round trips per lane, never timed. Each case runs the upload with a
 * budget of exactly the rounds it claims to need, and counts the commands it sent.
 */
const ADMIN = 515_151;
let token: string;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read'], ADMIN);
});
afterEach(resetClock);

async function ticketsOf(count: number) {
  const event = await seedEvent();
  const tickets = await writeTickets(event, count, () => ({ typeId: event.ticketTypes[0]!.id }));
  // The gate opens after the tickets were made: a scan a minute ago is after them.
  advanceClock(15 * 60_000);
  return { event, tickets };
}

const scanOf = (barcode: string, secondsAgo = 60) => ({
  id: randomUUID(),
  barcode,
  scannedAt: new Date(now().getTime() - secondsAgo * 1000).toISOString(),
  deviceId: 'north-1',
});

async function upload(eventId: number, scans: ReturnType<typeof scanOf>[], budget: UploadBudget = UPLOAD_BUDGET) {
  let results: ScanResult[] = [];
  const sent = await commandsSent(async () => {
    results = await uploadScans({ eventId, scans, adminId: ADMIN, eventScope: undefined }, budget);
  });
  const count = (command: string) => sent.filter((name) => name === command).length;
  return { results, sent, count, outcomes: results.map((result) => result.result) };
}

/** A budget of `laneRounds` round trips on `lanes` lanes, with no deadline to reach. */
const rounds = (lanes: number, laneRounds: number): UploadBudget => ({ lanes, laneRounds, deadlineMs: 60_000 });

describe('POST /scans within its budget', () => {
  it('500 scans of one barcode: one admission and 499 refusals in 2 round trips of one lane (11 transactions sent as 2 rounds), not 500 transactions', async () => {
    const { event, tickets } = await ticketsOf(1);
    const scans = Array.from({ length: 500 }, (_, n) => scanOf(tickets[0]!.barcode, 600 - n));
    const { results, count, sent } = await upload(event.id, scans, rounds(1, 2));
    expect(results[0]).toEqual({ id: scans[0]!.id, result: 'admitted', ticketId: tickets[0]!.id });
    expect(new Set(results.slice(1).map((result) => result.result))).toEqual(new Set(['already_checked_in']));
    expect(results[499]!.firstAdmission).toEqual({
      scannedAt: scans[0]!.scannedAt,
      deviceId: 'north-1',
      adminId: ADMIN,
    });
    // The inputs (the event, the barcode once, 500 scan ids: 6 BatchGetItems sent together), the ticket, the admission
    // with 10 scans' records, then the other 490 scans' 980 records in 10 transactions sent together.
    expect(count('BatchGetItemCommand')).toBe(7);
    expect(count('TransactWriteItemsCommand')).toBe(11);
    expect(sent.length).toBe(18);
    expect((await listScans(tickets[0]!.id, 1_000)).length).toBe(500);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(1);
    // Resent whole, every scan answers what it first got, from the reads alone.
    const again = await upload(event.id, scans, rounds(1, 0));
    expect(again.results).toEqual(results);
    expect(again.sent).toEqual(Array(6).fill('BatchGetItemCommand'));
  });

  it('500 distinct tickets: 8 lanes of 63 round trips admit them all, one transaction each', async () => {
    const { event, tickets } = await ticketsOf(500);
    const scans = tickets.map((ticket) => scanOf(ticket.barcode));
    const { outcomes, count, sent } = await upload(event.id, scans, rounds(8, 63));
    expect(outcomes).toEqual(Array(500).fill('admitted'));
    // 11 BatchGetItems of the inputs, 5 of the 500 tickets (together: two rounds), and the 500 admissions.
    expect(count('BatchGetItemCommand')).toBe(16);
    expect(count('TransactWriteItemsCommand')).toBe(500);
    expect(sent.length).toBe(516);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(500);
  }, 120_000);

  it('a mix past its budget answers `resend` for what it did not reach, recording nothing of it; the repeat upload finishes them', async () => {
    const { event, tickets } = await ticketsOf(40);
    // 40 tickets, each scanned 1-3 times, 20 unknown barcodes and an invalid time among them.
    const scans = [
      ...tickets.flatMap((ticket, n) => Array.from({ length: 1 + (n % 3) }, (_, k) => scanOf(ticket.barcode, 300 - k))),
      ...Array.from({ length: 20 }, (_, n) => scanOf(`NOBODY-${n}-${randomUUID()}`)),
      { ...scanOf(tickets[0]!.barcode), scannedAt: new Date(now().getTime() + 3_600_000).toISOString() },
    ];
    // 2 lanes of 10 rounds reach 20 of the 60 tasks (40 tickets and 20 unknown barcodes, one round each).
    const first = await upload(event.id, scans, rounds(2, 10));
    const resent = first.results.filter((result) => result.result === 'resend');
    expect(first.outcomes.filter((outcome) => outcome !== 'resend').length).toBeGreaterThan(20);
    expect(resent.length).toBeGreaterThan(0);
    expect(resent[0]!.message).toMatch(/send this scan again/);
    expect(first.outcomes.at(-1)).toBe('invalid');
    const reached = first.results.filter((result) => result.result === 'admitted').length;
    expect((await readStats(token, event.id)).checkedInTickets).toBe(reached);

    // The device sends its whole log again: what was answered answers the same, the rest is decided now.
    const second = await upload(event.id, scans);
    for (const [i, result] of first.results.entries())
      if (result.result !== 'resend') expect(second.results[i]).toEqual(result);
    expect(second.outcomes).not.toContain('resend');
    const admitted = second.results.filter((result) => result.result === 'admitted');
    expect(admitted.length).toBe(40);
    expect(new Set(admitted.map((result) => result.ticketId)).size).toBe(40);
    expect(second.outcomes.filter((outcome) => outcome === 'already_checked_in').length).toBe(scans.length - 61);
    const records = await readTicketRecords(tickets.map((ticket) => ticket.id));
    for (const record of records.values()) expect(record.processState).toBe(PROCESS_STATE.checkedIn);
    for (const [n, ticket] of tickets.entries()) expect((await listScans(ticket.id)).length).toBe(1 + (n % 3));
    expect((await readStats(token, event.id)).checkedInTickets).toBe(40);
  });
});
