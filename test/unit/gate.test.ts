import { describe, expect, it } from 'vitest';
import { applyScan } from '#shared/domain/check-in';
import { firstAdmissionOf, gateListEntry, gateScanOf, scanTimeProblem } from '#shared/domain/gate';
import { PROCESS_STATE, type TicketRecord } from '#shared/domain/ticket';
import { ScanUploadBody } from '#shared/http/contract/gate';

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
