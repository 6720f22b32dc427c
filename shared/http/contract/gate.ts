import {
  GATE_LIST_PAGE,
  MAX_BARCODE_LENGTH,
  MAX_LABEL_BYTES,
  MAX_SCANS,
  type GateListEntry,
  type ScanResult,
} from '../../domain/gate.ts';
import { positiveId } from '../../domain/ids.ts';
import { wholeNumber } from '../paging.ts';
import * as z from '../../schema.ts';

/** The request and answer schemas of the gate's routes (README "The gate offline"). */

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

export const GateScanInput = z.strictObject({
  id: z.uuid(SCAN_ID_MESSAGE).check(z.maxLength(36), z.regex(SCAN_ID, SCAN_ID_MESSAGE)),
  barcode: label(MAX_BARCODE_LENGTH),
  scannedAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).check(z.maxLength(40)),
  deviceId: z.optional(deviceLabel()),
  gate: z.optional(deviceLabel()),
});

export const ScanUploadBody = z.strictObject({
  eventId: positiveId,
  scans: z.array(GateScanInput).check(
    z.minLength(1, 'must hold at least one scan'),
    z.maxLength(MAX_SCANS, `must hold at most ${MAX_SCANS} scans: upload a longer log in several batches`),
    z.refine((scans) => new Set(scans.map((scan) => scan.id.toLowerCase())).size === scans.length, {
      message: 'each scan needs its own id: the batch repeats one',
    }),
  ),
});

export const GateListQuery = z.strictObject({
  // A phone with little memory takes the list in smaller pages; the default is the whole 1,000.
  _limit: z._default(
    z.pipe(
      wholeNumber('_limit'),
      z
        .number()
        .check(
          z.minimum(1, '_limit must be at least 1'),
          z.maximum(GATE_LIST_PAGE, `_limit must be at most ${GATE_LIST_PAGE}`),
        ),
    ),
    GATE_LIST_PAGE,
  ),
  changedSince: z.optional(
    z.iso.datetime({ message: 'must be a watermark a previous answer gave' }).check(z.maxLength(40)),
  ),
  _cursor: z.optional(
    z
      .string()
      .check(z.minLength(1, '_cursor must not be empty'), z.maxLength(300, '_cursor must be at most 300 characters')),
  ),
});

/** The gate's answers (`POST /scans`, `GET /gate-lists/{eventId}`; README "The gate offline"). */

const REFUSALS = ['already_checked_in', 'cancelled', 'transferred', 'withdrawn', 'not_valid_for_event'] as const;
export const SCAN_OUTCOMES = ['admitted', ...REFUSALS, 'unknown_barcode', 'invalid', 'resend'] as const;

export const ScanResultResource = z.strictObject({
  id: z.string().check(z.describe("The scan's client id, as sent.")),
  result: z.enum(SCAN_OUTCOMES),
  ticketId: z.optional(z.int().check(z.describe('The ticket the barcode belongs to, where found and in scope.'))),
  message: z.optional(
    z.string().check(z.describe('`invalid`: what is wrong with the scan; `resend`: that it was not reached.')),
  ),
  firstAdmission: z.optional(
    z
      .strictObject({
        scannedAt: z.iso.datetime(),
        deviceId: z.nullable(z.string()),
        adminId: z.int(),
      })
      .check(
        z.describe('`already_checked_in`: the admission that came first (its own scan time, device, administrator).'),
      ),
  ),
});
true satisfies z.Same<z.output<typeof ScanResultResource>, ScanResult>;

export const GateListEntryResource = z.strictObject({
  barcode: z.string().check(z.maxLength(MAX_BARCODE_LENGTH)),
  ticketId: z.int(),
  typeId: z.int(),
  attendeeName: z.string(),
  state: z.enum(['admittable', 'checked_in', 'void']),
  checkedInAt: z.optional(z.iso.datetime().check(z.describe('`checked_in`: the first admission at this event.'))),
  reason: z.optional(
    z.enum([...REFUSALS, 'deleted']).check(z.describe('`void`: why the ticket no longer admits to this event.')),
  ),
});
true satisfies z.Same<z.output<typeof GateListEntryResource>, GateListEntry>;

/** One answer of the admission list: the entries, the cursor of the next one, and the watermark for `changedSince`. */
export const GateListAnswer = z.strictObject({
  count: z.int(),
  data: z.array(GateListEntryResource),
  next: z.nullable(z.string()),
  watermark: z.iso
    .datetime()
    .check(z.describe('Pass as `changedSince` later to read only what changed since this walk began.')),
});
