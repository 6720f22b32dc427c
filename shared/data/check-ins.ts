import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock.ts';
import type { Scan, Ticket } from '../domain/ticket.ts';
import { Conflict } from '../errors.ts';
import { db, tableName } from './client.ts';
import type { ExtraAction } from './ticket-changes.ts';
import { keys } from './keys.ts';

/**
 * What the gate leaves behind besides the ticket: a record of every scan, admitted or
 * refused, in the ticket's partition; and the first answer to an `Idempotency-Key`, so a
 * scanner's retry gets that answer instead of "already checked in".
 */
const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

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
export const scanPut = (ticketId: number, scan: ScanRecord): ExtraAction => ({ action: { Put: { TableName: tableName(), Item: scanItem(ticketId, scan) } } });

/** Records a refused scan on its own: nothing else changes. */
export async function recordRefusedScan(ticketId: number, scan: ScanRecord): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: scanItem(ticketId, scan) }));
}

/** A ticket's scans, admitted and refused, oldest first: one Query of its partition, at most `limit`. */
export async function listScans(ticketId: number, limit = 100): Promise<ScanRecord[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :scan)',
      ExpressionAttributeValues: { ':pk': keys.ticket(ticketId).PK, ':scan': 'SCAN#' },
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => ({
    eventId: Number(item.eventId),
    scannedTimestamp: String(item.scannedTimestamp),
    adminId: Number(item.adminId),
    outcome: String(item.outcome),
  }));
}

const keyReused = () => new Conflict('This Idempotency-Key was already used for another ticket.', 'idempotency_key_reused');

/** The answer stored under an administrator's key for this ticket; 409 when the key was used for another ticket. */
export async function readIdempotentAnswer(adminId: number, key: string, ticketId: number): Promise<Ticket | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.idempotency(adminId, key), ConsistentRead: true }));
  if (!Item) return undefined;
  if (Item.ticketId !== ticketId) throw keyReused();
  return Item.answer as Ticket;
}

/** Stores the answer under the key in the check-in's transaction; the key already taken raises `onTaken`. */
export const idempotentAnswerPut = (adminId: number, key: string, ticketId: number, answer: Ticket, onTaken: () => Error): ExtraAction => ({
  action: {
    Put: {
      TableName: tableName(),
      Item: { ...keys.idempotency(adminId, key), entity: 'IdempotentAnswer', ticketId, answer, expiresAt: epochSeconds() + IDEMPOTENCY_TTL_SECONDS },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailed: onTaken,
});
