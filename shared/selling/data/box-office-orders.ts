import type { Order, OrderHistoryEntry, OrderTransaction } from '../domain/order.ts';
import type { StockTake } from '../domain/reservation.ts';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { ORDER_STATUS, orderStatusMoveActions, sameLength } from './order-status.ts';
import { holdAction, releaseAction, shortTake } from './stock.ts';
import { PROMO_USE, promoGiveBackAction, promoUseAction } from './holds.ts';
import { newOrderActions } from './orders.ts';
import { orderEntriesCaughtUp } from './order-list-entries.ts';
import type { LinkedEvent } from '../../portal/data/customer-events.ts';

/** The status a failed box-office sale ends in (shared/selling/use-cases/undo-sale.ts says why this one). */
export const FAILED_SALE_STATUS = 'expired' satisfies Order['status'];

/**
 * A box-office sale's first step: its stock held (`left` → `held` on each take's shard, conditional on the shard
 * having it), its promo code's use taken (conditional on the shard's cap, as a hold's) and the new order with them,
 * in one transaction: all or nothing. False when a shard no longer has what was read (nothing written: read again,
 * read-decide-write.ts).
 */
export async function commitHeldOrder(order: Order, event: LinkedEvent, takes: readonly StockTake[]): Promise<boolean> {
  const use = order.promo ? [promoUseAction(order.promo)] : [];
  try {
    await transactWrite([...takes.map(holdAction), ...use, ...newOrderActions(order, event)]);
    await orderEntriesCaughtUp([order.id]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && (shortTake(error, takes) || error.conditionFailed(PROMO_USE)))
      return false;
    throw error;
  }
}

/**
 * A failed box-office sale's undo starts (`boxOffice.undo`: when, by whom), conditional on the order still `pending`
 * and no undo started: from here no ticket of it is issued and it is never activated (orders.ts
 * `issuedTicketsActions`). False when the order had moved or another undo started first.
 */
export async function startUndo(orderId: number, undo: { at: string; by: string }): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.order(orderId),
        UpdateExpression: 'SET #box.#undo = :undo',
        ConditionExpression: '#status = :pending AND attribute_exists(#box) AND attribute_not_exists(#box.#undo)',
        ExpressionAttributeNames: { '#box': 'boxOffice', '#undo': 'undo', '#status': 'status' },
        ExpressionAttributeValues: { ':undo': undo, ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * A failed box-office sale's close, once its issued tickets are cancelled: in one transaction the order `pending` →
 * `expired` (its history entry and its payment's offset appended, its ticket ids set; the staff's counts moved), the places
 * of its hold not issued back on sale (`held` → `left` on each take's shard) and its promo code's use given back. The order's Update is conditional on
 * the order still `pending` with as many tickets recorded (`issuedTickets`) as when it was read, so a ticket issued
 * meanwhile, or another undo that closed it first (the request's own, the sweep's), writes nothing here: false, the
 * caller reads again.
 */
export async function closeFailedSale(
  order: Order,
  close: { entry: OrderHistoryEntry; refunds: OrderTransaction[]; ticketIds: number[] },
  releases: readonly StockTake[],
): Promise<boolean> {
  const issued = sameLength('issuedTickets', Object.keys(order.issuedTickets ?? {}).length);
  const move = orderStatusMoveActions(
    order,
    { status: FAILED_SALE_STATUS },
    { SET: { ticketIds: close.ticketIds }, APPEND: { history: [close.entry], transactions: close.refunds } },
    issued,
  );
  try {
    const giveBack = order.promo ? [promoGiveBackAction(order.promo)] : [];
    await transactWrite([...move, ...releases.map(releaseAction), ...giveBack]);
    await orderEntriesCaughtUp([order.id]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(ORDER_STATUS)) return false;
    throw error;
  }
}
