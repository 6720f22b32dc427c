import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { gateListEntry, type GateListEntry } from '#shared/gate/domain/gate';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { seedScale } from '../../bin/seed/scale.ts';
import { seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { accessFixture, SYSTEM } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

const SCANNER_ID = 494_949;
let token: string;

beforeAll(async () => {
  token = await adminToken(['checkin:scan'], SCANNER_ID);
});

interface Answer {
  count: number;
  data: GateListEntry[];
  next: string | null;
  watermark: string;
}

/** Every answer of a walk, from the first to the one whose `next` is null. */
async function walk(eventId: number, query = ''): Promise<Answer[]> {
  const answers: Answer[] = [];
  let url = `/api/v2/gate-lists/${eventId}${query ? `?${query}` : ''}`;
  for (;;) {
    const response = await call('GET', url, { token });
    expect(response.status, response.raw).toBe(200);
    answers.push(response.body);
    if (!response.body.next) return answers;
    url = `/api/v2/gate-lists/${eventId}?_cursor=${encodeURIComponent(response.body.next)}`;
  }
}
const entries = (answers: Answer[]) => answers.flatMap((answer) => answer.data);
const scan = (eventId: number, barcode: string) =>
  call('POST', '/api/v2/scans', {
    token,
    body: { eventId, scans: [{ id: randomUUID(), barcode, scannedAt: new Date().toISOString(), deviceId: 'list-1' }] },
  });

describe('GET /gate-lists/{eventId}', () => {
  it('lists the event’s own tickets and the access-package tickets that grant it, each once, with its gate state', async () => {
    const { a, b, dayType, passType } = await accessFixture();
    const own = await seedTickets(b, b.ticketTypes[0]!.id, 4);
    const passes = await seedTickets(a, passType, 3);
    await seedTickets(a, dayType, 2);
    await changeTicketStates(own[1]!.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);
    await changeTicketStates(own[2]!.id, { deleted: 1 }, SYSTEM);
    await changeTicketStates(passes[2]!.id, { withdrawnState: 'withdrawn' }, SYSTEM);
    await scan(b.id, own[3]!.barcode);
    await scan(b.id, passes[0]!.barcode);

    const answers = await walk(b.id);
    expect(answers).toHaveLength(1);
    const byTicket = new Map(entries(answers).map((entry) => [entry.ticketId, entry]));
    expect([...byTicket.keys()]).toEqual([own[0]!.id, own[1]!.id, own[3]!.id, ...passes.map((p) => p.id)]);
    expect(byTicket.get(own[0]!.id)).toEqual({
      barcode: own[0]!.barcode,
      ticketId: own[0]!.id,
      typeId: b.ticketTypes[0]!.id,
      attendeeName: `${own[0]!.partyMember} ${own[0]!.partyMemberLastName}`,
      state: 'admittable',
    });
    expect(byTicket.get(own[1]!.id)).toMatchObject({ state: 'void', reason: 'cancelled' });
    expect(byTicket.get(own[3]!.id)).toMatchObject({ state: 'checked_in', checkedInAt: expect.any(String) });
    expect(byTicket.get(passes[0]!.id)).toMatchObject({ state: 'checked_in', typeId: passType });
    expect(byTicket.get(passes[1]!.id)).toMatchObject({ state: 'admittable' });
    expect(byTicket.get(passes[2]!.id)).toMatchObject({ state: 'void', reason: 'withdrawn' });
    // The pass's own event lists it too, still admittable there: its scan at b was an access-package scan.
    expect(entries(await walk(a.id)).find((entry) => entry.ticketId === passes[0]!.id)?.state).toBe('admittable');
  });

  it('answers changedSince with only what changed since the watermark, removals as void', async () => {
    const { a, b, passType } = await accessFixture();
    const own = await seedTickets(b, b.ticketTypes[0]!.id, 3);
    const [pass] = await seedTickets(a, passType, 1);
    const [first] = await walk(b.id);
    // Past the watermark's lag, so what the delta answers is what changed after the walk.
    const unchanged = new Set((first!.data ?? []).map((entry) => entry.ticketId));
    expect(unchanged.size).toBe(4);
    const watermark = new Date(Date.now() + 1).toISOString();
    await changeTicketStates(own[0]!.id, { deleted: 1 }, SYSTEM);
    await scan(b.id, own[1]!.barcode);
    await changeTicketStates(pass!.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);
    const changed = entries(await walk(b.id, `changedSince=${encodeURIComponent(watermark)}`));
    expect(changed.map((entry) => entry.ticketId).sort((x, y) => x - y)).toEqual(
      [own[0]!.id, own[1]!.id, pass!.id].sort((x, y) => x - y),
    );
    const byTicket = new Map(changed.map((entry) => [entry.ticketId, entry]));
    expect(byTicket.get(own[0]!.id)).toMatchObject({ state: 'void', reason: 'deleted' });
    expect(byTicket.get(own[1]!.id)).toMatchObject({ state: 'checked_in' });
    expect(byTicket.get(pass!.id)).toMatchObject({ state: 'void', reason: 'cancelled' });
    // The walk's own watermark trails its start, so it answers at least those changes.
    const since = entries(await walk(b.id, `changedSince=${encodeURIComponent(first!.watermark)}`));
    expect(since.map((entry) => entry.ticketId)).toEqual(expect.arrayContaining([own[0]!.id, own[1]!.id, pass!.id]));
  });

  it('walks 1,200 tickets completely and exactly, 1,000 an answer, each answer by bounded reads', async () => {
    const seeded = await seedScale({ tickets: 1_200 });
    const ids = Array.from(
      { length: seeded.ticketIds.last - seeded.ticketIds.first + 1 },
      (_, i) => seeded.ticketIds.first + i,
    );
    const records = await readTicketRecords(ids);
    const expected = ids
      .map((id) => records.get(id)!)
      .filter((record) => !record.deleted)
      .map((record) => gateListEntry(record, seeded.eventId));
    const { result: answers, reads } = await countReads(() => walk(seeded.eventId));
    expect(answers.map((answer) => answer.count)).toEqual([1_000, expected.length - 1_000]);
    expect(entries(answers)).toEqual(expected);
    expect(new Set(answers.map((answer) => answer.watermark)).size).toBe(1);
    expect(reads.byCommand.ScanCommand ?? 0).toBe(0);
    expect(reads.queriesWithoutLimit).toBe(0);
  }, 120_000);

  it('refuses a cursor it did not answer, and answers 404 for an unknown event', async () => {
    const { b } = await accessFixture();
    const bad = await call('GET', `/api/v2/gate-lists/${b.id}?_cursor=bm9wZQ`, { token });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('application/problem+json');
    expect((await call('GET', '/api/v2/gate-lists/987654321', { token })).status).toBe(404);
    const malformed = await call('GET', `/api/v2/gate-lists/${b.id}?changedSince=yesterday`, { token });
    expect(malformed.status).toBe(400);
  });
});
