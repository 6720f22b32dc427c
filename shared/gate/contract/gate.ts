import {
  GATE_LIST_PAGE,
  GateListAnswer,
  GateListEntryResource,
  GateScanInput,
  MAX_SCANS,
  ScanResultResource,
} from '../domain/gate.ts';
import { positiveId } from '../../domain/ids.ts';
import { limitUpTo } from '../../request-fields.ts';
import * as z from '../../schema.ts';

/** The request and answer schemas of the gate's routes (README "The gate offline"). */

/** A scan as a device sends it: its schema lives with the domain's gate rules. */
export { GateScanInput };

export const ScanUploadBody = z.lazy(() =>
  z.strictObject({
    eventId: positiveId,
    scans: z.array(GateScanInput).check(
      z.minLength(1, 'must hold at least one scan'),
      z.maxLength(MAX_SCANS, `must hold at most ${MAX_SCANS} scans: upload a longer log in several batches`),
      z.refine((scans) => new Set(scans.map((scan) => scan.id.toLowerCase())).size === scans.length, {
        message: 'each scan needs its own id: the batch repeats one',
      }),
    ),
  }),
);

export const GateListQuery = z.lazy(() =>
  z.strictObject({
    // A phone with little memory takes the list in smaller pages; the default is the whole 1,000.
    _limit: limitUpTo(GATE_LIST_PAGE, GATE_LIST_PAGE),
    changedSince: z.optional(
      z.iso.datetime({ message: 'must be a watermark a previous answer gave' }).check(z.maxLength(40)),
    ),
    _cursor: z.optional(
      z
        .string()
        .check(z.minLength(1, '_cursor must not be empty'), z.maxLength(300, '_cursor must be at most 300 characters')),
    ),
  }),
);

/** The gate's answers: their schemas live with the domain types they define. */
export { GateListAnswer, GateListEntryResource, ScanResultResource };
