import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keyCondition } from './key-conditions.ts';
import { keys } from './keys.ts';

/**
 * The lapsing job's reads (functions/jobs/release-reservations.ts): the due entries of one
 * minute's shard by bounded Query up to an instant, and how far the job has swept (its
 * checkpoint), so a run after an outage starts where the last one stopped: no minute is
 * skipped and no Scan is needed.
 */

/** The reservation ids due by `at` in one minute's shard, earliest first, at most `limit`. */
export async function dueReservationIds(minute: string, shard: number, at: Date, limit: number): Promise<number[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.reservationsDueIn(minute, shard), { before: `${at.toISOString()}#~` }),
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => Number(item.reservationId));
}

const CHECKPOINT = keys.maintenanceCheckpoint('release-reservations', 'swept');

/** The last minute the job drained whole, or undefined before its first run. */
export async function sweptMinute(): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: CHECKPOINT, ConsistentRead: true }));
  return Item?.minute as string | undefined;
}

export async function recordSweptMinute(minute: string): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...CHECKPOINT, entity: 'Checkpoint', minute } }));
}
