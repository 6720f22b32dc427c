import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_RETENTION_MS, MAX_WEBHOOKS, type Webhook } from '../domain/webhooks.ts';
import { Conflict } from '../../errors.ts';
import { batchGet, db, labelled, tableName, TransactionCancelled, transactWrite } from '../../data/client.ts';
import { allocateIds } from '../../data/counters.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';
import { fromDeliveryItem, type StoredDelivery, webhookFromItem } from './webhook-items.ts';

export { fromDeliveryItem, type StoredDelivery } from './webhook-items.ts';

/**
 * Webhook subscriptions and their deliveries (README "Webhooks").
 *
 * - A subscription is one item of the `WEBHOOKS` partition, with a count beside them kept
 *   in the same transaction (`COUNT#webhooks`), so there are never more than MAX_WEBHOOKS and
 *   a ticket change reads them all in one bounded Query.
 * - A delivery is one item of its subscription's partition, keyed by an id that sorts by
 *   creation. A pending one is also on GSI3 by its next attempt in its subscription's due
 *   partition and GSI1 in all of them (the dispatcher reads the due ones: webhook-due.ts), and
 *   GSI2 by creation (the oldest undelivered message's age); a finished one leaves all three. Deliveries expire (TTL) 30 days after their creation.
 * - Every attempt first claims the delivery by a conditional update on its attempt count,
 *   which also moves its next attempt past the attempt's time: two dispatchers never send
 *   one attempt twice, and a crashed attempt is retried when its claim runs out.
 */
const WEBHOOK_COUNT = 'webhooks';
const DELIVERY_KEPT_SECONDS = DELIVERY_RETENTION_MS / 1000;

const webhookItem = (webhook: Webhook) => ({ ...keys.webhook(webhook.id), entity: 'Webhook', ...webhook });

/** A new subscription; its secrets are made for its id (they are sealed with the id as context). */
export async function createWebhook(
  fields: Omit<Webhook, 'id' | 'secrets'>,
  secretsFor: (id: number) => Promise<Webhook['secrets']>,
): Promise<Webhook> {
  const id = await allocateIds('webhook');
  const webhook: Webhook = { id, ...fields, secrets: await secretsFor(id) };
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: webhookItem(webhook), ConditionExpression: 'attribute_not_exists(PK)' } },
      labelled('count', {
        Update: {
          TableName: tableName(),
          Key: keys.count(WEBHOOK_COUNT),
          UpdateExpression: 'ADD #total :one',
          ConditionExpression: 'attribute_not_exists(#total) OR #total < :max',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS },
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('count'))
      throw new Conflict(`There are already ${MAX_WEBHOOKS} webhooks: delete one first.`, 'too_many_webhooks');
    throw error;
  }
  return webhook;
}

/** Every subscription, in id order: one Query, bounded by the maximum there can be. */
export async function listWebhooks(): Promise<Webhook[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.webhooks, { beginsWith: keys.webhookPrefix }),
      Limit: MAX_WEBHOOKS,
    }),
  );
  return (Items ?? []).map(webhookFromItem);
}

export async function getWebhook(id: number): Promise<Webhook | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(id), ConsistentRead: true }),
  );
  return Item ? webhookFromItem(Item) : undefined;
}

/** Replaces a subscription read at `expectedUpdated`: false when it changed or went since (the caller reads again). */
export async function replaceWebhook(webhook: Webhook, expectedUpdated: string): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: webhookItem(webhook),
        ConditionExpression: '#updated = :expected',
        ExpressionAttributeNames: { '#updated': 'updated' },
        ExpressionAttributeValues: { ':expected': expectedUpdated },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * The service's own changes to a subscription's health: set only while it still exists and,
 * given `expectedUpdated`, only if nobody changed it since (a colleague re-aiming it meanwhile
 * is not undone). True when written.
 */
export async function setWebhookHealth(
  id: number,
  health: Partial<Pick<Webhook, 'enabled' | 'disabledReason' | 'failingSince'>> & { updated: string },
  expectedUpdated?: string,
): Promise<boolean> {
  const names = Object.keys(health);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(id),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: expectedUpdated ? '#updated = :expected' : 'attribute_exists(PK)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
          ...(expectedUpdated ? { '#updated': 'updated' } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(Object.values(health).map((value, i) => [`:v${i}`, value])),
          ...(expectedUpdated ? { ':expected': expectedUpdated } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return false;
  }
}

/** Deletes a subscription; false when it was already gone. Its deliveries stay (and expire): they are cancelled at their next attempt. */
export async function deleteWebhook(id: number): Promise<boolean> {
  try {
    await transactWrite([
      labelled('webhook', {
        Delete: { TableName: tableName(), Key: keys.webhook(id), ConditionExpression: 'attribute_exists(PK)' },
      }),
      {
        Update: {
          TableName: tableName(),
          Key: keys.count(WEBHOOK_COUNT),
          UpdateExpression: 'ADD #total :minus',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('webhook')) return false;
    throw error;
  }
}

// ---- Deliveries ----

const pendingIndexes = (delivery: StoredDelivery) =>
  keys.pendingDeliveryIndexes(delivery.nextAttemptAt!, delivery.created, delivery.webhookId, delivery.id);

const deliveryItem = (delivery: StoredDelivery) => ({
  ...keys.delivery(delivery.webhookId, delivery.id),
  entity: 'WebhookDelivery',
  ...delivery,
  ...(delivery.status === 'pending' ? pendingIndexes(delivery) : {}),
  expiresAt: Math.floor(Date.parse(delivery.created) / 1000) + DELIVERY_KEPT_SECONDS,
});

/** Records a new delivery; false when it exists already (the same change read twice from the stream). */
export async function putDelivery(delivery: StoredDelivery): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: deliveryItem(delivery),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Which of these deliveries are recorded already (a change read again from the stream), one
 * answer per delivery; consistent reads, so a delivery recorded a moment ago counts.
 */
export async function deliveriesRecorded(
  deliveries: readonly Pick<StoredDelivery, 'webhookId' | 'id'>[],
): Promise<boolean[]> {
  const found = await batchGet(
    deliveries.map((delivery) => keys.delivery(delivery.webhookId, delivery.id)),
    { consistent: true, projection: 'attempts' },
  );
  return found.map((item) => item !== undefined);
}

export async function getDelivery(webhookId: number, id: string): Promise<StoredDelivery | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.delivery(webhookId, id), ConsistentRead: true }),
  );
  return Item ? fromDeliveryItem(Item) : undefined;
}

/**
 * Writes a delivery's new state if nobody else attempted it since it was read (its attempt
 * count unchanged); false otherwise. Pending, it is placed (or moved) on the due indexes;
 * finished, it leaves them.
 */
export async function updateDelivery(next: StoredDelivery, expectedAttempts: number): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: deliveryItem(next),
        ConditionExpression: 'attempts = :expected',
        ExpressionAttributeValues: { ':expected': expectedAttempts },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Pending deliveries whose next attempt is due at `at`, oldest due first. */
export async function dueDeliveries(at: Date, limit: number): Promise<StoredDelivery[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.dueDeliveries, { before: `${at.toISOString()}#~` }),
      Limit: limit,
    }),
  );
  return (Items ?? []).map(fromDeliveryItem);
}

/** The oldest pending delivery (its creation time is the age of the oldest undelivered message). */
export async function oldestPendingDelivery(): Promise<StoredDelivery | undefined> {
  const { Items } = await db.send(
    new QueryCommand({ TableName: tableName(), ...keyCondition(keys.waitingDeliveries), Limit: 1 }),
  );
  return Items?.[0] ? fromDeliveryItem(Items[0]) : undefined;
}

/** A page of a subscription's deliveries, newest first, after the cursor (the last delivery id of the previous page). */
export async function listDeliveries(
  webhookId: number,
  page: { limit: number; after?: string },
): Promise<{ items: StoredDelivery[]; next: string | null }> {
  // The partition holds the subscription's deliveries only, so "before the cursor" needs no lower bound.
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(
        keys.webhookDeliveries(webhookId),
        page.after ? { before: keys.delivery(webhookId, page.after).SK } : { beginsWith: keys.deliveryPrefix },
      ),
      ScanIndexForward: false,
      // One more than the page: whether there is a next page, without a second read.
      Limit: page.limit + 1,
    }),
  );
  const items = (Items ?? []).map(fromDeliveryItem);
  const shown = items.slice(0, page.limit);
  return { items: shown, next: items.length > page.limit ? shown.at(-1)!.id : null };
}
