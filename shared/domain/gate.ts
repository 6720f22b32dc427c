import { decideScan, type RefusalReason } from './check-in.ts';
import { PROCESS_STATE, type Scan, type TicketRecord } from './ticket.ts';

/**
 * The gate's own way in (README "The gate offline"): scans by barcode, one online or a batch
 * uploaded after working offline, and the admission list a device takes offline. Admitting
 * is `decideScan` (check-in.ts), the same rule as `POST /tickets/{id}/check-in`.
 */

/** Scans per upload: a device offline for an hour at a busy gate uploads in a few batches. */
export const MAX_SCANS = 500;
/** The longest barcode a scan may carry: the tickets' own bound (contract/tickets.ts). */
export const MAX_BARCODE_LENGTH = 100;
/** The longest `deviceId` or `gate`, in UTF-8 bytes (40 ASCII characters): each admission keeps the device's on the ticket. */
export const MAX_LABEL_BYTES = 40;
/** A device's clock may run this far ahead of the server's. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
/**
 * The admission window for a scan's time: up to 72 hours before its upload. A device that
 * scanned through a weekend festival offline uploads when back; older scans are refused
 * (`invalid`) rather than admitting by a clock nobody can check. The spec's check-in route
 * admits on any day, so the window bounds the upload's age, not the event's hours.
 */
export const OFFLINE_MAX_AGE_MS = 72 * 3_600_000;

/**
 * `resend`: the upload's budget ran out before the scan was decided; nothing was recorded of it,
 * and the device sends it again (a repeat upload of the whole log finishes it).
 */
export type ScanOutcome = 'admitted' | RefusalReason | 'unknown_barcode' | 'invalid' | 'resend';

export interface GateScan {
  id: string;
  barcode: string;
  scannedAt: string;
  deviceId?: string;
  gate?: string;
}

/** Who admitted a ticket first: answered with `already_checked_in`. */
export interface FirstAdmission {
  scannedAt: string;
  deviceId: string | null;
  adminId: number;
}

export interface ScanResult {
  id: string;
  result: ScanOutcome;
  ticketId?: number;
  /** `invalid`, `resend`: why. */
  message?: string;
  /** `already_checked_in`: the admission that came first. */
  firstAdmission?: FirstAdmission;
}

/** Why a scan's time is refused (`invalid`), or undefined when it lies in the admission window. */
export function scanTimeProblem(scannedAt: string, now: Date): string | undefined {
  const at = Date.parse(scannedAt);
  if (at > now.getTime() + FUTURE_TOLERANCE_MS) return 'scannedAt is more than 5 minutes in the future.';
  if (at < now.getTime() - OFFLINE_MAX_AGE_MS) return 'scannedAt is more than 72 hours before the upload.';
  return undefined;
}

/** The scan a ticket keeps for an admission at `eventId` (its check-in time is the device's). */
export const gateScanOf = (scan: GateScan, eventId: number, adminId: number, uploadedAt: string): Scan => ({
  eventId,
  scannedTimestamp: new Date(scan.scannedAt).toISOString(),
  adminId,
  ...(scan.deviceId ? { deviceId: scan.deviceId } : {}),
  scanId: scan.id,
  uploadedAt,
});

/** The admission that made the ticket checked in at `eventId`, if any. */
export function firstAdmissionOf(ticket: TicketRecord, eventId: number): FirstAdmission | undefined {
  const scan =
    eventId === ticket.eventId && ticket.processState === PROCESS_STATE.checkedIn
      ? ticket.checkIn
      : ticket.accessScans[String(eventId)];
  if (!scan) return undefined;
  return { scannedAt: scan.scannedTimestamp, deviceId: scan.deviceId ?? null, adminId: scan.adminId };
}

/** A ticket's state on the admission list: what a device decides offline with. */
export type GateState =
  | { state: 'admittable' }
  | { state: 'checked_in'; checkedInAt: string }
  | { state: 'void'; reason: RefusalReason | 'deleted' };

export interface GateListEntry {
  barcode: string;
  ticketId: number;
  typeId: number;
  attendeeName: string;
  state: GateState['state'];
  checkedInAt?: string;
  reason?: RefusalReason | 'deleted';
}

/** The ticket as the admission list of `eventId` shows it: decideScan's answer, offline. */
export function gateListEntry(ticket: TicketRecord, eventId: number): GateListEntry {
  const base = {
    barcode: ticket.barcode,
    ticketId: ticket.id,
    typeId: ticket.typeId,
    attendeeName: `${ticket.partyMember} ${ticket.partyMemberLastName}`.trim(),
  };
  if (ticket.deleted) return { ...base, state: 'void', reason: 'deleted' };
  const decision = decideScan(ticket, eventId);
  if (decision.admitted) return { ...base, state: 'admittable' };
  if (decision.reason === 'already_checked_in')
    return { ...base, state: 'checked_in', checkedInAt: decision.firstScan ?? ticket.updated };
  return { ...base, state: 'void', reason: decision.reason };
}
