import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderCancellation, OrderHistoryEntry, PartCancellation } from '../domain/order.ts';
import { batchGet, db, tableName, writtenIf } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { allOrderCountItems, eventOrderCountItems } from './order-count-shards.ts';
import { fromItem } from './order-items.ts';

/**
 * What the staff's order routes read and write beside the order's creation (orders.ts): the kept counts of
 * their lists (order-status.ts moves them; the lists' walk is shared/lists/orders.ts), one order by id, and
 * the start of a cancellation.
 */

/**
 * The kept counts of these events (undefined: every event's): `n`, or `s#<status>`, summed over their shards
 * (order-count-shards.ts), strongly consistent so a move whose write answered is counted. BatchGetItems sent together.
 */
export async function countStaffOrders(eventIds: readonly number[] | undefined, status?: string): Promise<number> {
  const shards = eventIds ? eventIds.flatMap(eventOrderCountItems) : allOrderCountItems();
  const items = await batchGet(shards, { consistent: true });
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
  return writtenIf(
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
}

/**
 * Records a part of an active order being cancelled (`partCancellations`, with its history entry), before any of its
 * tickets changes: conditional on the order still `active`, no whole cancellation started and as many parts recorded
 * as when it was read (so a part chosen against that read is not recorded beside another naming the same tickets).
 * False when the order moved meanwhile (the caller reads it again).
 */
export async function startPartCancellation(
  order: Pick<Order, 'id' | 'partCancellations'>,
  part: PartCancellation,
  entry: OrderHistoryEntry,
): Promise<boolean> {
  const recorded = order.partCancellations?.length ?? 0;
  return writtenIf(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.order(order.id),
      UpdateExpression:
        'SET #parts = list_append(if_not_exists(#parts, :none), :part), #history = list_append(if_not_exists(#history, :none), :entry)',
      ConditionExpression: `#status = :active AND attribute_not_exists(cancellation) AND ${
        recorded ? 'size(#parts) = :recorded' : 'attribute_not_exists(#parts)'
      }`,
      ExpressionAttributeNames: { '#parts': 'partCancellations', '#history': 'history', '#status': 'status' },
      ExpressionAttributeValues: {
        ':part': [part],
        ':entry': [entry],
        ':none': [],
        ':active': 'active',
        ...(recorded ? { ':recorded': recorded } : {}),
      },
    }),
  );
}
