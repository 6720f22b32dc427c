import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Order, OrderCancellation, OrderHistoryEntry } from '../domain/order.ts';
import { batchGet, db, tableName } from './client.ts';
import { ORDER_SHARDS } from './customer-keys.ts';
import { keys } from './keys.ts';
import type { WalkSource } from './merged-walk.ts';
import { fromItem } from './orders.ts';

/**
 * What the staff's order routes read and write beside the order's creation (orders.ts): the lists' index
 * partitions (keys.ts `eventOrders`, `eventStatusOrders`, `allOrders`, `statusOrders`), the kept counts
 * (order-status.ts moves them), one order by id, and the start of a cancellation.
 */

export interface StaffOrderPartitions {
  /** The events read (each its own partition); undefined: every event (the sharded lists). */
  eventIds?: readonly number[];
  status?: string;
  /** ISO-8601 UTC, inclusive, either open. */
  from?: string;
  to?: string;
}

/** The walk's sources of a filter: one partition per event, or the ORDER_SHARDS shards of every event's. */
export function staffOrderSources({ eventIds, status, from, to }: StaffOrderPartitions): WalkSource[] {
  const low = from === undefined ? undefined : keys.timeSortBound(from, 'first');
  const high = to === undefined ? undefined : keys.timeSortBound(to, 'last');
  const partitions = eventIds
    ? eventIds.map((eventId) =>
        status === undefined ? keys.eventOrders(eventId) : keys.eventStatusOrders(eventId, status),
      )
    : Array.from({ length: ORDER_SHARDS }, (_, shard) =>
        status === undefined ? keys.allOrders(shard) : keys.statusOrders(status, shard),
      );
  return partitions.map((partition) => ({ partition, low, high }));
}

/** The kept counts of these events (undefined: every event's item): `n`, or `s#<status>`, summed. One BatchGetItem. */
export async function countStaffOrders(eventIds: readonly number[] | undefined, status?: string): Promise<number> {
  const items = await batchGet(eventIds ? eventIds.map((id) => keys.eventOrderCounts(id)) : [keys.allOrderCounts]);
  const name = status === undefined ? 'n' : `s#${status}`;
  return items.reduce((sum, item) => sum + Number(item?.[name] ?? 0), 0);
}

/** An order by id, strongly consistent (a cancellation decides on it). */
export async function readOrder(id: number): Promise<Order | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.order(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/**
 * Records that a cancellation started (before any ticket changes), conditional on none having started and the
 * order still in `status`: false when another request got there first (the caller reads the order again).
 */
export async function startCancellation(
  order: Pick<Order, 'id' | 'status'>,
  cancellation: OrderCancellation,
  entry: OrderHistoryEntry,
): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.order(order.id),
        UpdateExpression:
          'SET cancellation = :cancellation, #history = list_append(if_not_exists(#history, :none), :entry)',
        ConditionExpression: 'attribute_not_exists(cancellation) AND #status = :status',
        ExpressionAttributeNames: { '#history': 'history', '#status': 'status' },
        ExpressionAttributeValues: {
          ':cancellation': cancellation,
          ':none': [],
          ':entry': [entry],
          ':status': order.status,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
