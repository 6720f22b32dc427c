import * as z from '#shared/schema';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { ScanUploadBody } from '#shared/gate/contract/gate';
import { ScanResultResource } from '#shared/gate/contract/gate';
import { uploadScans } from '#shared/gate/use-cases/upload-scans';

/** One scan online, or a device's offline log: one result per scan, in order (README "The gate offline"). */
export const handler = route('POST /scans', { body: ScanUploadBody }, async ({ body, caller }) =>
  dataOnly(
    await uploadScans({
      eventId: body.eventId,
      // A UUID names one scan whatever its letters' case.
      scans: body.scans.map((scan) => ({ ...scan, id: scan.id.toLowerCase() })),
      adminId: caller.id,
      eventScope: caller.eventScope,
    }),
  ),
);

export const answer = () => DataAnswer(z.array(ScanResultResource));
