import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keyAttributes, keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';
import { fromDeliveryItem, type StoredDelivery } from './webhooks.ts';

/**
 * The dispatcher's per-subscription due index (README "Webhooks", functions/jobs/README.md): every
 * pending delivery is also in its subscription's own GSI3 partition by next attempt, so a run reads
 * each subscription's few due ones by one bounded Query whatever another's backlog, where the
 * global index (GSI1, webhooks.ts `dueDeliveries`) hands out only the oldest due of them all.
 */

/** One subscription's pending deliveries whose next attempt is due at `at`, oldest due first, at most `limit`. */
export async function subscriptionDueDeliveries(webhookId: number, at: Date, limit: number): Promise<StoredDelivery[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.subscriptionDueDeliveries(webhookId), { before: `${at.toISOString()}#~` }),
      Limit: limit,
    }),
  );
  return (Items ?? []).map(fromDeliveryItem);
}

/**
 * A page of the pending deliveries by creation (GSI2, migration 8), from `start` (a page's
 * `next`): each stored before the per-subscription index and still pending as read placed in it.
 * Answers how many it placed and where the next page starts (undefined at the end).
 */
export async function indexPendingBySubscription(
  start: Record<string, unknown> | undefined,
  limit: number,
): Promise<{ placed: number; next?: Record<string, unknown> }> {
  const page = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.waitingDeliveries),
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  const stale = (page.Items ?? [])
    .map(fromDeliveryItem)
    .filter(
      (delivery, n) =>
        !(keyAttributes(keys.subscriptionDueDeliveries(delivery.webhookId)).partition in page.Items![n]!),
    );
  const placed = await Promise.all(stale.map(placeDue));
  return { placed: placed.filter(Boolean).length, next: page.LastEvaluatedKey };
}

/**
 * Adds a pending delivery's per-subscription due entry, only while it is as read (pending, the
 * same attempt count and next attempt): a delivery attempted, cancelled or retried since was
 * rewritten whole, with its indexes, by that change. False then.
 */
async function placeDue(delivery: StoredDelivery): Promise<boolean> {
  const { nextAttemptAt, created, webhookId, id, attempts } = delivery;
  const place = keys.pendingDeliveryIndexes(nextAttemptAt!, created, webhookId, id);
  const names = Object.keys(place);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(webhookId, id),
        UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
        ConditionExpression: '#status = :pending AND attempts = :attempts AND nextAttemptAt = :next',
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(names.map((name, i) => [`#k${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':attempts': attempts,
          ':next': nextAttemptAt,
          ...Object.fromEntries(Object.values(place).map((value, i) => [`:k${i}`, value])),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
