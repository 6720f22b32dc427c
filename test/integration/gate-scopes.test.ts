import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '#shared/clock';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { call } from '../support/api.ts';
import { oneTicket } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `POST /scans` across administrators of different event scopes: outside
 * your events looks missing. A scan id answers only callers of the scope that recorded it
 * (who reach the same tickets); anyone else is answered as for an id never sent, and cannot
 * block the real upload of that id; a barcode outside the caller's scope is `unknown_barcode`.
 */
afterEach(resetClock);

const scanOf = (barcode: string, id: string = randomUUID()) => ({
  id,
  barcode,
  scannedAt: new Date(now().getTime() - 60_000).toISOString(),
  deviceId: 'gate-9',
});
const upload = (token: string, eventId: number, scans: ReturnType<typeof scanOf>[]) =>
  call('POST', '/api/v2/scans', { token, body: { eventId, scans } });
const scanner = (id: number, eventScope?: number[]) =>
  adminToken(['checkin:scan'], id, eventScope ? { eventScope } : {});

async function twoEvents() {
  const first = await oneTicket();
  const second = await oneTicket();
  advanceClock(15 * 60_000);
  return { first, second };
}

describe('POST /scans across event scopes', () => {
  it('answers a barcode of a ticket outside the scope exactly as a barcode nobody holds, and records nothing on the ticket', async () => {
    const { first, second } = await twoEvents();
    const scoped = await scanner(626_001, [first.event.id]);
    const theirs = scanOf(second.ticket.barcode);
    const nobody = scanOf(`NOBODY-${randomUUID()}`);
    const response = await upload(scoped, first.event.id, [theirs, nobody]);
    expect(response.body.data).toEqual([
      { id: theirs.id, result: 'unknown_barcode' },
      { id: nobody.id, result: 'unknown_barcode' },
    ]);
    expect(await listScans(second.ticket.id)).toEqual([]);
    // Resent, both answer the same again.
    expect((await upload(scoped, first.event.id, [theirs, nobody])).body).toEqual(response.body);
  });

  it('keeps a scan id’s result to its scope: a narrower scope resending it is answered as a new scan, and both answers stay', async () => {
    const { first, second } = await twoEvents();
    const wide = await scanner(626_002, [first.event.id, second.event.id]);
    const narrow = await scanner(626_003, [first.event.id]);
    // The wide scanner scans event 2's ticket at event 1: not valid there, and it may read the ticket.
    const scan = scanOf(second.ticket.barcode);
    const seen = await upload(wide, first.event.id, [scan]);
    expect(seen.body.data).toEqual([{ id: scan.id, result: 'not_valid_for_event', ticketId: second.ticket.id }]);
    // The narrow one, sending the same id, learns nothing of the ticket: what a barcode outside its events answers.
    const resent = await upload(narrow, first.event.id, [scan]);
    expect(resent.body.data).toEqual([{ id: scan.id, result: 'unknown_barcode' }]);
    expect((await upload(wide, first.event.id, [scan])).body).toEqual(seen.body);
    expect((await listScans(second.ticket.id)).map((kept) => kept.outcome)).toEqual(['not_valid_for_event']);
  });

  it('cannot be blocked: an id recorded first by another scope with a bogus barcode leaves the real upload of that id to admit', async () => {
    const { first, second } = await twoEvents();
    const elsewhere = await scanner(626_004, [second.event.id]);
    const everywhere = await scanner(626_005);
    const mine = await scanner(626_006, [first.event.id]);
    const id = randomUUID();
    const bogus = await upload(elsewhere, second.event.id, [scanOf('BOGUS-626', id)]);
    expect(bogus.body.data).toEqual([{ id, result: 'unknown_barcode' }]);
    // Unscoped, the same id for event 1 with another bogus barcode: a record of the unscoped scope only.
    expect((await upload(everywhere, first.event.id, [scanOf('BOGUS-627', id)])).body.data[0].result).toBe(
      'unknown_barcode',
    );
    const real = await upload(mine, first.event.id, [scanOf(first.ticket.barcode, id)]);
    expect(real.body.data).toEqual([{ id, result: 'admitted', ticketId: first.ticket.id }]);
    expect((await readTicketRecord(first.ticket.id))!.processState).toBe(PROCESS_STATE.checkedIn);
    // The admission's history entry keeps the scope it was made in.
    const reader = await adminToken(['tickets:read']);
    const history = await call('GET', `/api/v2/tickets/${first.ticket.id}?_include=history`, { token: reader });
    expect(history.body.data.history.data[0]).toMatchObject({
      version: 2,
      action: 'check_in',
      actor: 'admin 626006',
      eventScope: [first.event.id],
    });
    // Within a scope the id stays taken: the unscoped scanner sending it again is told it was used for another scan.
    const reused = await upload(everywhere, first.event.id, [scanOf(first.ticket.barcode, id)]);
    expect(reused.body.data[0]).toMatchObject({ id, result: 'invalid', message: expect.stringMatching(/scan id/) });
  });
});
