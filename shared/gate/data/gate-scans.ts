import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type GateScan, type ScanResult, ScanResultResource } from '../domain/gate.ts';
import { Conflict } from '../../errors.ts';
import * as z from '../../schema.ts';
import { batchGet, db, tableName } from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import type { ExtraAction } from '../../tickets/data/ticket-changes.ts';

/**
 * The gate's uploads (`POST /scans`): one item per scan by its client id within the
 * caller's event scope, `GATE_SCAN#<scope>#<id>`, holding the scan and the result it got.
 * Keyed by scope so that a result answers only callers who saw it decided (the same scope
 * reaches the same tickets), and a caller of another scope can neither read it nor block
 * the real upload of that id by recording it first. It is written conditionally (absent)
 * and, for a scan of a known ticket, inside the same transaction as the ticket's change or
 * refused scan record: one more item write in the check-in's transaction (1 KB, 2 write
 * units), so a scan is either admitted and kept, or neither, and an upload cut off after its
 * commit finds its result on the retry instead of being recorded `already_checked_in` by its
 * own admission. A put after the transaction would leave that window open.
 *
 * Not the `Idempotency-Key` store (shared/data/idempotent-requests.ts), on purpose: that
 * one answers one request per key and claims it (a Put, a lock) before acting; an upload
 * holds up to hundreds of scans, each its own first answer, shared by every caller of the
 * same scope (not per caller), kept as the scan's record (device, gate, uploader) and read
 * with the upload's tickets in one BatchGetItem. Here the transaction itself is the claim, so
 * a claim per scan would only add a write per scan.
 */

const StoredGateScan = z.lazy(() => z.object({ eventId: z.number(), barcode: z.string(), result: ScanResultResource }));
export type StoredGateScan = z.output<typeof StoredGateScan>;

/** The caller's scope as a key part: `all`, or a digest of its sorted events (a scope may name many). */
export function scopeKey(scope: readonly number[] | undefined): string {
  if (!scope) return 'all';
  const sorted = [...new Set(scope)].sort((a, b) => a - b).join(',');
  return createHash('sha256').update(sorted).digest('base64url').slice(0, 22);
}

/** One of the scan's client ids is taken: a concurrent upload of the same scan committed first. */
export class GateScanTaken extends Conflict {
  constructor() {
    super('This scan was recorded by a concurrent upload.', 'scan_recorded');
  }
}

/** Who recorded a scan: the upload's event, administrator and scope, and when it arrived. */
export interface ScanUploader {
  eventId: number;
  adminId: number;
  scope: string;
  uploadedAt: string;
}

const gateScanItem = (scan: GateScan, by: ScanUploader, result: ScanResult) => ({
  ...keys.gateScan(by.scope, scan.id),
  entity: 'GateScan',
  eventId: by.eventId,
  barcode: scan.barcode,
  scannedAt: scan.scannedAt,
  ...(scan.deviceId ? { deviceId: scan.deviceId } : {}),
  ...(scan.gate ? { gate: scan.gate } : {}),
  adminId: by.adminId,
  uploadedAt: by.uploadedAt,
  result,
});

/** The scan's record as an action of its ticket's transaction. */
export const gateScanPut = (scan: GateScan, by: ScanUploader, result: ScanResult): ExtraAction => ({
  action: {
    Put: {
      TableName: tableName(),
      Item: gateScanItem(scan, by, result),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailed: () => new GateScanTaken(),
});

/** Records a scan that found no ticket on its own; false when the id was already recorded. */
export async function recordGateScan(scan: GateScan, by: ScanUploader, result: ScanResult): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: gateScanItem(scan, by, result),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

const PROJECTION = { projection: 'eventId, barcode, ticketId, #result', names: { '#result': 'result' } };

const storedOf = (item: Record<string, unknown>): StoredGateScan => parseItem(StoredGateScan, item, 'gate scan');

/** The scans of `scanIds` already recorded in the scope, strongly consistent (after GateScanTaken). */
export async function readGateScans(scope: string, scanIds: readonly string[]): Promise<Map<string, StoredGateScan>> {
  const items = await batchGet(
    scanIds.map((id) => keys.gateScan(scope, id)),
    { consistent: true, ...PROJECTION },
  );
  const recorded = new Map<string, StoredGateScan>();
  scanIds.forEach((id, i) => {
    const item = items[i];
    if (item) recorded.set(id, storedOf(item));
  });
  return recorded;
}

/**
 * What an upload needs before it decides, in one round of BatchGetItems (chunks of 100, sent
 * together): whether the event exists, the ticket of each barcode (its unique item) and the
 * scans already recorded in the caller's scope. Strongly consistent, so a retry right after a
 * commit finds it.
 */
export async function readUploadInputs(
  eventId: number,
  scope: string,
  barcodes: readonly string[],
  scanIds: readonly string[],
): Promise<{ eventExists: boolean; ticketOf: Map<string, number>; recorded: Map<string, StoredGateScan> }> {
  const items = await batchGet(
    [
      keys.event(eventId),
      ...barcodes.map((barcode) => keys.barcode(barcode)),
      ...scanIds.map((id) => keys.gateScan(scope, id)),
    ],
    { consistent: true, ...PROJECTION },
  );
  const ticketOf = new Map<string, number>();
  barcodes.forEach((barcode, i) => {
    const item = items[1 + i];
    if (item) ticketOf.set(barcode, Number(item.ticketId));
  });
  const recorded = new Map<string, StoredGateScan>();
  scanIds.forEach((id, i) => {
    const item = items[1 + barcodes.length + i];
    if (item) recorded.set(id, storedOf(item));
  });
  return { eventExists: items[0] !== undefined, ticketOf, recorded };
}
