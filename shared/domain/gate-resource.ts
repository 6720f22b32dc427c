import * as z from '../schema.ts';
import { MAX_BARCODE_LENGTH, type GateListEntry, type ScanResult } from './gate.ts';

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
