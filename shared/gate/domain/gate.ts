import * as z from '../../schema.ts';
import { decideScan, REFUSAL_REASONS, type RefusalReason } from './check-in.ts';
import { PROCESS_STATE, type Scan, type TicketRecord } from '../../tickets/domain/ticket.ts';

/**
 * The gate's own way in (README "The gate offline"): scans by barcode, one online or a batch
 * uploaded after working offline, and the admission list a device takes offline. Admitting
 * is `decideScan` (check-in.ts), the same rule as `POST /tickets/{id}/check-in`.
 */

/** Entries per admission-list answer at most (and by default): a device takes 100,000 tickets offline in 100 requests. */
export const GATE_LIST_PAGE = 1_000;
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
 * A scan's outcome. `resend`: the upload's budget ran out before the scan was decided; nothing was recorded of it,
 * and the device sends it again (a repeat upload of the whole log finishes it).
 */
export const SCAN_OUTCOMES = ['admitted', ...REFUSAL_REASONS, 'unknown_barcode', 'invalid', 'resend'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

const label = (max: number) =>
  z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

/**
 * A device's or gate's name: shown to other devices (`firstAdmission`) and kept on the
 * ticket, so printable (no control, format or bidi characters such as U+202E, no line or
 * paragraph separators, no `<` `>`) and short: at most MAX_LABEL_BYTES bytes as UTF-8, which
 * bounds what an admission adds to the ticket item (test/integration/write-units.test.ts).
 */
const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}<>]*$/u;
const utf8 = new TextEncoder();
const deviceLabel = () =>
  label(MAX_LABEL_BYTES).check(
    z.regex(PRINTABLE, 'must be printable: no control, format or bidi characters, no < or >'),
    z.refine((value: string) => utf8.encode(value).length <= MAX_LABEL_BYTES, {
      message: `must be at most ${MAX_LABEL_BYTES} bytes as UTF-8`,
    }),
  );

/** A random (v4) or time-ordered (v7) UUID: a device makes its scan ids so; nil, max and v1 ids are refused. */
const SCAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const SCAN_ID_MESSAGE = 'must be a UUID of version 4 or 7 the device made for this scan';

/** A scan as a device uploads it (`POST /scans`). */
export const GateScanInput = z.lazy(() =>
  z.strictObject({
    id: z.uuid(SCAN_ID_MESSAGE).check(z.maxLength(36), z.regex(SCAN_ID, SCAN_ID_MESSAGE)),
    barcode: label(MAX_BARCODE_LENGTH),
    scannedAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).check(z.maxLength(40)),
    deviceId: z.optional(deviceLabel()),
    gate: z.optional(deviceLabel()),
  }),
);

export type GateScan = z.output<typeof GateScanInput>;

/** Who admitted a ticket first: answered with `already_checked_in`. */
const FirstAdmissionResource = z.lazy(() =>
  z
    .strictObject({
      scannedAt: z.iso.datetime(),
      deviceId: z.nullable(z.string()),
      adminId: z.int(),
    })
    .check(
      z.describe('`already_checked_in`: the admission that came first (its own scan time, device, administrator).'),
    ),
);
export type FirstAdmission = z.output<typeof FirstAdmissionResource>;

/** What `POST /scans` answers for each scan. */
export const ScanResultResource = z.lazy(() =>
  z.strictObject({
    id: z.string().check(z.describe("The scan's client id, as sent.")),
    result: z.enum(SCAN_OUTCOMES),
    ticketId: z.optional(z.int().check(z.describe('The ticket the barcode belongs to, where found and in scope.'))),
    message: z.optional(
      z.string().check(z.describe('`invalid`: what is wrong with the scan; `resend`: that it was not reached.')),
    ),
    firstAdmission: z.optional(FirstAdmissionResource),
  }),
);
export type ScanResult = z.output<typeof ScanResultResource>;

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

/** A ticket as the admission list (`GET /gate-lists/{eventId}`) shows it. */
export const GateListEntryResource = z.lazy(() =>
  z.strictObject({
    barcode: z.string().check(z.maxLength(MAX_BARCODE_LENGTH)),
    ticketId: z.int(),
    typeId: z.int(),
    attendeeName: z.string(),
    state: z.enum(['admittable', 'checked_in', 'void']),
    checkedInAt: z.optional(z.iso.datetime().check(z.describe('`checked_in`: the first admission at this event.'))),
    reason: z.optional(
      z
        .enum([...REFUSAL_REASONS, 'deleted'])
        .check(z.describe('`void`: why the ticket no longer admits to this event.')),
    ),
  }),
);
export type GateListEntry = z.output<typeof GateListEntryResource>;

/** One answer of the admission list: the entries, the cursor of the next one, and the watermark for `changedSince`. */
export const GateListAnswer = z.lazy(() =>
  z.strictObject({
    count: z.int(),
    data: z.array(GateListEntryResource),
    next: z.nullable(z.string()),
    watermark: z.iso
      .datetime()
      .check(z.describe('Pass as `changedSince` later to read only what changed since this walk began.')),
  }),
);
export type GateListPage = z.output<typeof GateListAnswer>;

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
