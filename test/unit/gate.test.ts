import { describe, expect, it } from 'vitest';
import { applyScan } from '#shared/gate/domain/check-in';
import { firstAdmissionOf, gateListEntry, gateScanOf, scanTimeProblem } from '#shared/gate/domain/gate';
import { decideTicketScans } from '#shared/gate/domain/gate-batch';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { ScanUploadBody } from '#shared/gate/contract/gate';

const ticket = (overrides: Partial<TicketRecord> = {}): TicketRecord =>
  ({
    id: 7,
    eventId: 10,
    typeId: 100,
    barcode: 'BC-7',
    partyMember: 'Ada',
    partyMemberLastName: 'Okafor',
    processState: PROCESS_STATE.active,
    transferState: 'none',
    upgradeState: 'none',
    withdrawnState: 'none',
    deleted: 0,
    accessEvents: [20],
    checkIn: null,
    accessScans: {},
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    ...overrides,
  }) as TicketRecord;

const NOW = new Date('2026-06-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

describe("a gate scan's time", () => {
  it('is in the window from 72 hours before the upload to 5 minutes after the server’s clock', () => {
    expect(scanTimeProblem(at(5 * 60_000), NOW)).toBeUndefined();
    expect(scanTimeProblem(at(-72 * 3_600_000), NOW)).toBeUndefined();
    expect(scanTimeProblem(at(5 * 60_000 + 1), NOW)).toMatch(/future/);
    expect(scanTimeProblem(at(-72 * 3_600_000 - 1), NOW)).toMatch(/72 hours/);
  });
});

describe('the admission list entry and the first admission', () => {
  const device = {
    id: 'c0a8012e-7f4b-4d1a-9c55-3b1f2a6d9e10',
    barcode: 'BC-7',
    scannedAt: at(-60_000),
    deviceId: 'north',
  };

  it('shows an active ticket admittable, with its name, type and barcode', () => {
    expect(gateListEntry(ticket(), 10)).toEqual({
      barcode: 'BC-7',
      ticketId: 7,
      typeId: 100,
      attendeeName: 'Ada Okafor',
      state: 'admittable',
    });
  });

  it('shows a ticket admitted by a device checked in at its scan time, and names the device as the first admission', () => {
    const admitted = applyScan(ticket(), 'simple', gateScanOf(device, 10, 3, NOW.toISOString()));
    expect(gateListEntry(admitted, 10)).toMatchObject({ state: 'checked_in', checkedInAt: device.scannedAt });
    expect(firstAdmissionOf(admitted, 10)).toEqual({ scannedAt: device.scannedAt, deviceId: 'north', adminId: 3 });
    // At the event its package grants it is still admittable: one admission per event.
    expect(gateListEntry(admitted, 20).state).toBe('admittable');
  });

  it('shows a refused ticket void with the check-in route’s reason, and a deleted one as deleted', () => {
    expect(gateListEntry(ticket({ withdrawnState: 'withdrawn' }), 10)).toMatchObject({
      state: 'void',
      reason: 'withdrawn',
    });
    expect(gateListEntry(ticket(), 30)).toMatchObject({ state: 'void', reason: 'not_valid_for_event' });
    expect(gateListEntry(ticket({ deleted: 1 }), 10)).toMatchObject({ state: 'void', reason: 'deleted' });
  });
});

describe('the upload body', () => {
  const scan = { id: 'c0a8012e-7f4b-4d1a-9c55-3b1f2a6d9e10', barcode: 'BC-7', scannedAt: NOW.toISOString() };
  it('refuses the same scan id twice in a batch, whatever its letters’ case', () => {
    const twice = ScanUploadBody.safeParse({ eventId: 1, scans: [scan, { ...scan, id: scan.id.toUpperCase() }] });
    expect(twice.success).toBe(false);
    expect(ScanUploadBody.safeParse({ eventId: 1, scans: [scan] }).success).toBe(true);
  });
});

describe('the upload body, scan by scan', () => {
  const scan = { id: 'c0a8012e-7f4b-4d1a-9c55-3b1f2a6d9e10', barcode: 'BC-7', scannedAt: NOW.toISOString() };
  const takes = (fields: Record<string, unknown>) =>
    ScanUploadBody.safeParse({ eventId: 1, scans: [{ ...scan, ...fields }] }).success;

  it.each([
    ['nil', '00000000-0000-0000-0000-000000000000'],
    ['max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
    ['version 1', 'c232ab00-9414-11ec-b3c8-9f68deced846'],
    ['version 4 of another variant', 'c0a8012e-7f4b-4d1a-1c55-3b1f2a6d9e10'],
  ])('refuses a %s scan id', (_, id) => expect(takes({ id })).toBe(false));

  it('takes random (v4) and time-ordered (v7) scan ids', () => {
    expect(takes({ id: '3b241101-e2bb-4255-8caf-4136c566a962' })).toBe(true);
    expect(takes({ id: '01932c07-209c-7c2f-bf8b-4c3a1d2e5f60' })).toBe(true);
  });

  it.each([
    ['a NUL', 'gate\u00001'],
    ['a right-to-left override', 'gate\u202e1'],
    ['a zero-width space', 'gate\u200b1'],
    ['a line separator', 'gate\u20281'],
    ['markup', '<img src=x>'],
    ['41 characters', 'x'.repeat(41)],
    ['41 bytes of 21 characters', `${'é'.repeat(20)}x`],
  ])('refuses a deviceId or gate with %s', (_, value) => {
    expect(takes({ deviceId: value })).toBe(false);
    expect(takes({ gate: value })).toBe(false);
  });

  it('takes printable names of up to 40 bytes, accents and spaces included', () => {
    expect(takes({ deviceId: 'x'.repeat(40), gate: 'Südtor Nord' })).toBe(true);
  });
});

describe("one ticket's scans in one upload", () => {
  const scanAt = (id: string, ms: number) => ({ id, barcode: 'BC-7', scannedAt: at(ms), deviceId: 'north' });
  const input = (overrides = {}) => ({
    record: ticket(),
    eventId: 10,
    adminId: 3,
    at: NOW.toISOString(),
    inScope: true,
    ...overrides,
  });

  it('admits the first and refuses the rest as already checked in, naming the batch’s own admission', () => {
    const plan = decideTicketScans(input(), [scanAt('a', -3_000), scanAt('b', -2_000), scanAt('c', -1_000)]);
    expect(plan.admission).toMatchObject({ action: 'check_in', after: { processState: PROCESS_STATE.checkedIn } });
    expect(plan.verdicts.map((verdict) => verdict.result.result)).toEqual([
      'admitted',
      'already_checked_in',
      'already_checked_in',
    ]);
    expect(plan.verdicts[2]!.result.firstAdmission).toEqual({ scannedAt: at(-3_000), deviceId: 'north', adminId: 3 });
    expect(plan.verdicts.map((verdict) => verdict.kept?.outcome)).toEqual([
      'admitted',
      'already_checked_in',
      'already_checked_in',
    ]);
  });

  it('refuses a scan from before the ticket existed as invalid, keeping nothing of it, and admits the next', () => {
    const record = ticket({ created: at(-60_000) });
    const plan = decideTicketScans(input({ record }), [scanAt('early', -61_000), scanAt('late', -59_000)]);
    expect(plan.invalid).toEqual([
      { scan: scanAt('early', -61_000), result: { id: 'early', result: 'invalid', message: expect.any(String) } },
    ]);
    expect(plan.verdicts.map((verdict) => verdict.result)).toEqual([{ id: 'late', result: 'admitted', ticketId: 7 }]);
  });

  it('answers a ticket outside the scope, deleted or re-coded as an unknown barcode, keeping nothing on it', () => {
    for (const overrides of [
      { inScope: false },
      { record: ticket({ deleted: 1 }) },
      { record: ticket({ barcode: 'X' }) },
    ]) {
      const plan = decideTicketScans(input(overrides), [scanAt('a', -1_000)]);
      expect(plan.admission).toBeUndefined();
      expect(plan.verdicts).toEqual([{ scan: scanAt('a', -1_000), result: { id: 'a', result: 'unknown_barcode' } }]);
    }
  });
});
