import type { Order } from '../domain/order.ts';
import { labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { orderCountItems } from './order-count-shards.ts';
import { orderEntriesCaughtUp } from './order-list-entries.ts';

/**
 * The staff's order counts (keys.ts `eventOrderCounts`, `allOrderCounts`: `n`, `s#<status>`) and the one write
 * that moves an order's status: the order and both counts in one transaction (its status entry follows it, a plain
 * write once it answered: order-list-entries.ts `orderEntriesCaughtUp`), conditional on the status it leaves, so the counts cannot drift from the orders. Both counts are
 * sharded by the order (order-count-shards.ts: which items, and the arithmetic against the transaction ceiling).
 */

/** The Updates that add `moves` (attribute → delta) to the order's shards of its event's and every event's counts. */
export function staffCountMoves(order: Pick<Order, 'id' | 'eventId'>, moves: Record<string, number>) {
  const names: Record<string, string> = {};
  const values: Record<string, number | string> = { ':entity': 'OrderCount' };
  const adds = Object.entries(moves).map(([name, delta], i) => {
    names[`#m${i}`] = name;
    values[`:m${i}`] = delta;
    return `#m${i} :m${i}`;
  });
  const update = `SET entity = :entity ADD ${adds.join(', ')}`;
  return orderCountItems(order).map((Key) => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: update,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  }));
}

/** The order changed status under us (another request moved it first). */
export class OrderStatusMoved extends Error {
  constructor(readonly orderId: number) {
    super(`Order ${orderId} is no longer in the status this change started from.`);
  }
}

/** A further condition on the order's Update (its names and values apart from the move's own). */
export interface OrderCondition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The order's list or map `name` as long as when read: entries chosen against that read (a transaction whose
 * `reference` it did not hold, order-lists.ts `moveOrder`; the tickets a failed sale's close cancelled,
 * box-office-orders.ts) are then written once.
 */
export const sameLength = (name: 'transactions' | 'issuedTickets', length: number): OrderCondition => ({
  expression: 'size(#sameLength) = :sameLength',
  names: { '#sameLength': name },
  values: { ':sameLength': length },
});

/**
 * What a status move writes beside the status: `SET` attributes written whole; `APPEND` entries added at the end of
 * the order's lists (`list_append`: an entry another writer added meanwhile is kept, as a whole rewrite of the list as
 * read would lose it).
 */
export interface OrderMoveWrites {
  SET?: Record<string, unknown>;
  APPEND?: Partial<Record<'transactions' | 'history', readonly unknown[]>>;
}

/** The label of a status move's order Update (client.ts `labelled`): its condition failed when the order moved. */
export const ORDER_STATUS = 'order status';

/**
 * The actions of `before.status` → `after.status` (and the writes in `writes`): the order's Update, conditional on
 * `before.status` (and `also`, when given), first, then both counts; for a caller writing them in a transaction of
 * its own (a lapse's, a failed sale's close).
 */
export function orderStatusMoveActions(
  before: Pick<Order, 'id' | 'eventId' | 'status' | 'purchasedDate'>,
  after: Pick<Order, 'status'>,
  { SET = {}, APPEND = {} }: OrderMoveWrites,
  also?: OrderCondition,
) {
  const attributes = { ...SET, status: after.status };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':from': before.status };
  const sets = Object.entries(attributes).map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  const appended = Object.entries(APPEND).filter(([, entries]) => entries?.length);
  for (const [i, [name, entries]] of appended.entries()) {
    names[`#l${i}`] = name;
    values[`:l${i}`] = entries;
    sets.push(`#l${i} = list_append(if_not_exists(#l${i}, :none), :l${i})`);
  }
  if (appended.length) values[':none'] = [];
  // Counted, so that its status entry is written in the moves' order (order-list-entries.ts).
  names['#moves'] = 'statusMoves';
  values[':zero'] = 0;
  values[':one'] = 1;
  sets.push('#moves = if_not_exists(#moves, :zero) + :one');
  names['#status'] = 'status';
  return [
    labelled(ORDER_STATUS, {
      Update: {
        TableName: tableName(),
        Key: keys.order(before.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: also ? `#status = :from AND ${also.expression}` : '#status = :from',
        ExpressionAttributeNames: { ...names, ...also?.names },
        ExpressionAttributeValues: { ...values, ...also?.values },
      },
    }),
    ...staffCountMoves(before, { [`s#${before.status}`]: -1, [`s#${after.status}`]: 1 }),
  ];
}

/**
 * `before.status` → `after.status` (and the writes in `writes`), conditional on `before.status` (and `also`); both
 * counts moved. Throws OrderStatusMoved when the order is no longer in `before.status` (or `also` failed meanwhile).
 */
export async function moveOrderStatus(
  before: Pick<Order, 'id' | 'eventId' | 'status' | 'purchasedDate'>,
  after: Pick<Order, 'status'>,
  writes: OrderMoveWrites,
  also?: OrderCondition,
): Promise<void> {
  try {
    await transactWrite(orderStatusMoveActions(before, after, writes, also));
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(ORDER_STATUS))
      throw new OrderStatusMoved(before.id);
    throw error;
  }
  await orderEntriesCaughtUp([before.id]);
}
