import { now } from '../../clock.ts';
import { scanPut } from '../../data/check-ins.ts';
import { GateScanTaken, gateScanPut, readGateScan, readUploadInputs, recordGateScan } from '../../data/gate-scans.ts';
import { applyScan, decideScan } from '../../domain/check-in.ts';
import { firstAdmissionOf, gateScanOf, scanTimeProblem, type GateScan, type ScanResult } from '../../domain/gate.ts';
import { NotFound } from '../../errors.ts';
import { recordCheckIn } from '../../services/metrics.ts';
import { assertEventsInScope, ticketInScope, type EventScope } from '../event-scope.ts';
import { changeTicket } from '../tickets/change-ticket.ts';

export interface ScanUpload {
  eventId: number;
  scans: GateScan[];
  adminId: number;
  eventScope: EventScope;
}

/** Tickets decided at once; one ticket's scans are decided one after another, in upload order. */
const PARALLEL_TICKETS = 8;

/**
 * `POST /scans` (README "The gate offline"). One BatchGetItem reads the event, every barcode's
 * ticket id and every scan already recorded; then each scan is decided by `decideScan`
 * through `changeTicket`, so an admission is the check-in route's one transaction (ticket,
 * history, scan record, statistics; webhooks follow from the stream) plus the scan's record
 * by its client id. An online scan costs that one read, the check-in's read and its
 * transaction. The results come back in upload order.
 */
export async function uploadScans(upload: ScanUpload): Promise<ScanResult[]> {
  const { eventId, scans, eventScope } = upload;
  // An event outside the scope answers what an unknown one does.
  assertEventsInScope(eventScope, [eventId]);
  const inputs = await readUploadInputs(
    eventId,
    scans.map((scan) => scan.barcode),
    scans.map((scan) => scan.id),
  );
  if (!inputs.eventExists) throw new NotFound('Event', eventId);
  const results: ScanResult[] = new Array(scans.length);
  // Scans of one ticket stay in upload order: the first admits, the next are already_checked_in.
  const byTicket = new Map<string, number[]>();
  scans.forEach((scan, i) => {
    const group = String(inputs.ticketOf.get(scan.barcode) ?? `scan ${i}`);
    byTicket.set(group, [...(byTicket.get(group) ?? []), i]);
  });
  const groups = [...byTicket.values()];
  const worker = async () => {
    for (let group = groups.shift(); group; group = groups.shift())
      for (const i of group) results[i] = await decideOne(upload, scans[i]!, inputs);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_TICKETS, groups.length) }, worker));
  return results;
}

type Inputs = Awaited<ReturnType<typeof readUploadInputs>>;

async function decideOne(upload: ScanUpload, scan: GateScan, inputs: Inputs): Promise<ScanResult> {
  const stored = inputs.recorded.get(scan.id);
  if (stored) return replayed(upload.eventId, scan, stored);
  const problem = scanTimeProblem(scan.scannedAt, now());
  // Nothing is kept of an invalid scan: the device may correct its clock and send it again.
  if (problem) return { id: scan.id, result: 'invalid', message: problem };
  const ticketId = inputs.ticketOf.get(scan.barcode);
  try {
    if (ticketId === undefined) return await unknownBarcode(upload, scan);
    return await scanTicket(upload, scan, ticketId);
  } catch (error) {
    if (!(error instanceof GateScanTaken)) throw error;
    // A concurrent upload of the same scan committed first: answer what it got.
    return replayed(upload.eventId, scan, (await readGateScan(scan.id))!);
  }
}

/** A resent scan answers its first result; a client id reused for another scan is refused. */
function replayed(eventId: number, scan: GateScan, stored: NonNullable<Awaited<ReturnType<typeof readGateScan>>>) {
  if (stored.eventId === eventId && stored.barcode === scan.barcode) return stored.result;
  return {
    id: scan.id,
    result: 'invalid' as const,
    message: 'This scan id was already used for another scan: each scan needs its own id.',
  };
}

async function unknownBarcode(upload: ScanUpload, scan: GateScan): Promise<ScanResult> {
  const result: ScanResult = { id: scan.id, result: 'unknown_barcode' };
  if (await recordGateScan(scan, upload.eventId, upload.adminId, now().toISOString(), result)) return result;
  throw new GateScanTaken();
}

async function scanTicket(upload: ScanUpload, scan: GateScan, ticketId: number): Promise<ScanResult> {
  const { eventId, adminId, eventScope } = upload;
  let admitted = false;
  try {
    // The scope is checked here, not by changeTicket: a ticket outside it is a per-scan refusal.
    const result = await changeTicket(
      ticketId,
      { actor: { kind: 'admin', id: adminId }, action: 'check_in', via: ['check_in'] },
      async (record, at) => {
        admitted = false;
        const keep = (result: ScanResult) => gateScanPut(scan, eventId, adminId, at, result);
        if (record.deleted || record.barcode !== scan.barcode) {
          const result: ScanResult = { id: scan.id, result: 'unknown_barcode' };
          return { changes: [], extra: [keep(result)], result };
        }
        if (!ticketInScope(eventScope, record, 'granted')) {
          // Like the check-in route's 404: nothing is told or recorded about the ticket.
          const result: ScanResult = { id: scan.id, result: 'out_of_scope' };
          return { changes: [], extra: [keep(result)], result };
        }
        const kept = gateScanOf(scan, eventId, adminId, at);
        const decision = decideScan(record, eventId);
        if (!decision.admitted) {
          const first = decision.reason === 'already_checked_in' ? firstAdmissionOf(record, eventId) : undefined;
          const result: ScanResult = {
            id: scan.id,
            result: decision.reason,
            ticketId: record.id,
            ...(first ? { firstAdmission: first } : {}),
          };
          recordCheckIn(decision);
          return {
            changes: [],
            extra: [scanPut(record.id, { ...kept, outcome: decision.reason }), keep(result)],
            result,
          };
        }
        // The check-in time is the device's; `updated` is the commit's, so the update-time
        // index (the sync, the gate list's changedSince) sees the change when it happens.
        const after = { ...applyScan(record, decision.kind, kept), updated: at };
        const result: ScanResult = { id: scan.id, result: 'admitted', ticketId: record.id };
        admitted = true;
        return {
          changes: [{ before: record, after }],
          extra: [scanPut(record.id, { ...kept, outcome: 'admitted' }), keep(result)],
          action: decision.kind === 'simple' ? 'check_in' : 'access_scan',
          result,
        };
      },
    );
    if (admitted) recordCheckIn({ admitted: true });
    return result;
  } catch (error) {
    // The barcode's ticket is gone (its unique item read before a delete committed).
    if (error instanceof NotFound) return unknownBarcode(upload, scan);
    throw error;
  }
}
