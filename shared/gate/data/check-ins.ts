import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Scan } from '../../tickets/domain/ticket.ts';
import { db, tableName } from '../../data/client.ts';
import type { ExtraAction } from '../../tickets/data/ticket-changes.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * What the gate leaves behind besides the ticket: a record of every scan, admitted or
 * refused, in the ticket's partition. (A retry's first answer: idempotent-requests.ts.)
 */

export interface ScanRecord extends Scan {
  /** `admitted` or the refusal reason. */
  outcome: string;
}

const scanItem = (ticketId: number, scan: ScanRecord) => ({
  ...keys.scanRecord(ticketId, scan.scannedTimestamp, randomUUID().slice(0, 8)),
  entity: 'Scan',
  ticketId,
  ...scan,
});

/** The scan record as an action of the ticket's change transaction. */
export const scanPut = (ticketId: number, scan: ScanRecord): ExtraAction => ({
  action: { Put: { TableName: tableName(), Item: scanItem(ticketId, scan) } },
});

/** A ticket's scans, admitted and refused, oldest first: one Query of its partition, at most `limit`. */
export async function listScans(ticketId: number, limit = 100): Promise<ScanRecord[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.ticketItems(ticketId), { beginsWith: keys.scanRecordPrefix }),
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => ({
    eventId: Number(item.eventId),
    scannedTimestamp: String(item.scannedTimestamp),
    adminId: Number(item.adminId),
    outcome: String(item.outcome),
    // A gate upload's scan (POST /scans) also says which device, which scan and when it arrived.
    ...(item.deviceId === undefined ? {} : { deviceId: String(item.deviceId) }),
    ...(item.scanId === undefined ? {} : { scanId: String(item.scanId) }),
    ...(item.uploadedAt === undefined ? {} : { uploadedAt: String(item.uploadedAt) }),
  }));
}
