import { MAX_BARCODE_LENGTH, MAX_SCANS } from '../../domain/gate.ts';
import { positiveId } from '../../domain/ids.ts';
import * as z from '../../schema.ts';

/** The request schemas of the gate's routes (README "The gate offline"). */

const label = (max: number) =>
  z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));

export const GateScanInput = z.strictObject({
  id: z.uuid('must be a UUID the device made for this scan').check(z.maxLength(36)),
  barcode: label(MAX_BARCODE_LENGTH),
  scannedAt: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).check(z.maxLength(40)),
  deviceId: z.optional(label(100)),
  gate: z.optional(label(100)),
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
  changedSince: z.optional(
    z.iso.datetime({ message: 'must be a watermark a previous answer gave' }).check(z.maxLength(40)),
  ),
  _cursor: z.optional(
    z
      .string()
      .check(z.minLength(1, '_cursor must not be empty'), z.maxLength(300, '_cursor must be at most 300 characters')),
  ),
});
