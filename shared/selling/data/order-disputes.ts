import type { Order } from '../domain/order.ts';
import { disputeState, type OrderDispute } from '../domain/order-dispute.ts';
import { tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * An order's dispute (shared/selling/domain/order-dispute.ts): kept on the order item, and a list entry beside it
 * (`ORDER#<id>` / `DISPUTE`, keys.ts `orderDisputeEntry`) that places the order in the disputed lists of
 * `GET /orders?dispute=open|closed`, moved from open to closed with the dispute. One transaction writes both.
 */

const ENTITY = 'OrderDispute';

/**
 * Records `dispute` on the order when `sequence` is higher than the one it holds (or it holds none), with its list
 * entry; false, nothing written, when the order holds a later (or the same) event's or does not exist.
 */
export async function recordDispute(
  order: Pick<Order, 'id' | 'eventId' | 'purchasedDate'>,
  dispute: OrderDispute,
  sequence: number,
): Promise<boolean> {
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.order(order.id),
          UpdateExpression: 'SET dispute = :dispute, disputeSequence = :sequence',
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(disputeSequence) OR disputeSequence < :sequence)',
          ExpressionAttributeValues: { ':dispute': dispute, ':sequence': sequence },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.orderDisputeEntry(order.id),
            ...keys.orderDisputeIndexes(order, disputeState(dispute.status)),
            entity: ENTITY,
            orderId: order.id,
            eventId: order.eventId,
          },
        },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled) return false;
    throw error;
  }
}

/** The order id a disputed list's entry names. */
export const disputedOrderId = (entry: Record<string, unknown>): number => Number(entry.orderId);
