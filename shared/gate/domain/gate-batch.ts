import { decideCheckIn } from './check-in.ts';
import { firstAdmissionOf, gateScanOf, type GateScan, type ScanResult } from './gate.ts';
import type { Scan, TicketRecord } from '../../tickets/domain/ticket.ts';

/**
 * An upload's scans of one ticket, decided at once and in upload order (README "The gate
 * offline"): the first that may admit does, on the ticket as read; every later one is
 * decided on the ticket as that admission leaves it (so `already_checked_in`, with the
 * batch's own admission as `firstAdmission`). Pure: the use case writes what it returns
 * (one transaction for the admission, the refusals' records beside it), so 500 scans of
 * one barcode cost a few transactions, not 500 one after another.
 */

/** What the ticket keeps of a scan (its scan record, gate/data/check-ins.ts): admitted or the refusal. */
export type KeptScan = Scan & { outcome: string };

export interface ScanVerdict {
  scan: GateScan;
  result: ScanResult;
  /** The record the ticket keeps; absent for a scan answered as an unknown barcode (nothing is kept on a ticket). */
  kept?: KeptScan;
}

export interface TicketScansPlan {
  /** The admission, when one of the scans admits: the ticket after it, and the history's name of it. */
  admission?: { after: TicketRecord; action: 'check_in' | 'access_scan' };
  /** Per scan decided, in upload order (scans answered `invalid` are not here: nothing is kept of them). */
  verdicts: ScanVerdict[];
  /** Scans refused `invalid` (nothing kept: the device may correct its clock and resend), in upload order. */
  invalid: { scan: GateScan; result: ScanResult }[];
}

export interface TicketScansInput {
  record: TicketRecord;
  eventId: number;
  adminId: number;
  /** The upload's time: the admission's `updated` and every scan's `uploadedAt`. */
  at: string;
  /** Whether the caller's scope reaches the ticket (`granted`): outside it, the barcode answers as unknown. */
  inScope: boolean;
}

/** A scan older than the ticket cannot have admitted it: a clock set wrong, or a forged log. */
const BEFORE_TICKET = 'scannedAt is before the ticket existed.';

export function decideTicketScans(input: TicketScansInput, scans: readonly GateScan[]): TicketScansPlan {
  const { record, eventId, adminId, at } = input;
  const plan: TicketScansPlan = { verdicts: [], invalid: [] };
  let current = record;
  for (const scan of scans) {
    // Outside the scope, deleted or re-coded: what a barcode nobody holds answers (no existence oracle).
    if (!input.inScope || record.deleted || record.barcode !== scan.barcode) {
      plan.verdicts.push({ scan, result: { id: scan.id, result: 'unknown_barcode' } });
      continue;
    }
    if (Date.parse(scan.scannedAt) < Date.parse(record.created)) {
      plan.invalid.push({ scan, result: { id: scan.id, result: 'invalid', message: BEFORE_TICKET } });
      continue;
    }
    // The check-in route's decision (pure: what to write, or the refusal and its record).
    const outcome = decideCheckIn(current, gateScanOf(scan, eventId, adminId, at));
    if (outcome.admitted) {
      // The check-in time is the device's; `updated` is the commit's, so the update-time
      // index (the sync, the gate list's changedSince) sees the change when it happens.
      current = { ...outcome.after, updated: at };
      plan.admission = { after: current, action: outcome.action };
      plan.verdicts.push({
        scan,
        result: { id: scan.id, result: 'admitted', ticketId: record.id },
        kept: outcome.kept,
      });
      continue;
    }
    const first = outcome.reason === 'already_checked_in' ? firstAdmissionOf(current, eventId) : undefined;
    plan.verdicts.push({
      scan,
      result: { id: scan.id, result: outcome.reason, ticketId: record.id, ...(first ? { firstAdmission: first } : {}) },
      kept: outcome.kept,
    });
  }
  return plan;
}
