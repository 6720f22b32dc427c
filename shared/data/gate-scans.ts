import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { GateScan, ScanResult } from '../domain/gate.ts';
import { Conflict } from '../errors.ts';
import { batchGet, db, tableName } from './client.ts';
import { keys } from './keys.ts';
import type { ExtraAction } from './ticket-changes.ts';

/**
 * The gate's uploads (`POST /scans`): one item per scan by its client id, `GATE_SCAN#<id>`,
 * holding the scan and the result it got. It is written conditionally (absent) and, for a
 * scan of a known ticket, inside the same transaction as the ticket's change or refused
 * scan record: one more item write in the check-in's transaction (1 KB, 2 write units), so a
 * scan is either admitted and kept, or neither, and an upload cut off after its commit finds
 * its result on the retry instead of being recorded `already_checked_in` by its own
 * admission. A put after the transaction would leave that window open.
 */

export interface StoredGateScan {
  eventId: number;
  barcode: string;
  result: ScanResult;
}

/** The scan's client id is taken: a concurrent upload of the same scan committed first. */
export class GateScanTaken extends Conflict {
  constructor() {
    super('This scan was recorded by a concurrent upload.', 'scan_recorded');
  }
}

const gateScanItem = (scan: GateScan, eventId: number, adminId: number, uploadedAt: string, result: ScanResult) => ({
  ...keys.gateScan(scan.id),
  entity: 'GateScan',
  eventId,
  barcode: scan.barcode,
  scannedAt: scan.scannedAt,
  ...(scan.deviceId ? { deviceId: scan.deviceId } : {}),
  ...(scan.gate ? { gate: scan.gate } : {}),
  adminId,
  uploadedAt,
  result,
});

type GateScanInput = Parameters<typeof gateScanItem>;

/** The scan's record as an action of its ticket's transaction. */
export const gateScanPut = (...input: GateScanInput): ExtraAction => ({
  action: {
    Put: { TableName: tableName(), Item: gateScanItem(...input), ConditionExpression: 'attribute_not_exists(PK)' },
  },
  onConditionFailed: () => new GateScanTaken(),
});

/** Records a scan that found no ticket on its own; false when the id was already recorded. */
export async function recordGateScan(...input: GateScanInput): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: gateScanItem(...input),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

const storedOf = (item: Record<string, unknown>): StoredGateScan => ({
  eventId: Number(item.eventId),
  barcode: String(item.barcode),
  result: item.result as ScanResult,
});

/** One scan's record, strongly consistent (after GateScanTaken). */
export async function readGateScan(scanId: string): Promise<StoredGateScan | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.gateScan(scanId), ConsistentRead: true }),
  );
  return Item ? storedOf(Item) : undefined;
}

/**
 * What an upload needs before it decides, in one BatchGetItem (chunks of 100 for a batch):
 * whether the event exists, the ticket of each barcode (its unique item) and the scans
 * already recorded. Strongly consistent, so a retry right after a commit finds it.
 */
export async function readUploadInputs(
  eventId: number,
  barcodes: readonly string[],
  scanIds: readonly string[],
): Promise<{ eventExists: boolean; ticketOf: Map<string, number>; recorded: Map<string, StoredGateScan> }> {
  const items = await batchGet(
    [
      keys.event(eventId),
      ...barcodes.map((barcode) => keys.barcode(barcode)),
      ...scanIds.map((id) => keys.gateScan(id)),
    ],
    { consistent: true, projection: 'eventId, barcode, ticketId, #result', names: { '#result': 'result' } },
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
