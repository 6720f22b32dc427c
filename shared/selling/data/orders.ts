import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WALK_UP_CUSTOMER, type Order } from '../domain/order.ts';
import type { PromoUse, StockTake } from '../domain/reservation.ts';
import { db, tableName, transactWrite } from '../../data/client.ts';
import { customerEventLink, type LinkedEvent } from '../../portal/data/customer-events.ts';
import { attendeesPut, fromItem, orderItem } from './order-items.ts';
import { orderEntriesCaughtUp } from './order-list-entries.ts';
import { keys } from '../../data/keys.ts';
import { orderStatusMoveActions, staffCountMoves, type OrderCondition } from './order-status.ts';

/**
 * Orders: `ORDER#<id>` / `ORDER` (sequence `ORDER`), in no index, its status entry `ORDER#<id>` / `ORDER_STATUS` on the
 * status-keyed GSI4 and GSI6, and its list entry `ORDER#<id>` / `ORDER_LISTS` on GSI1 `CUSTOMER_ORDERS#<customerId>`,
 * GSI2 `CUSTOMER_EVENT_ORDERS#<customerId>#<eventId>`, GSI3 and GSI5 (keys.ts, order-list-entries.ts), all sorted by
 * `<purchasedDate>#<id:10>`, so a customer's orders (of an event) in a purchase-date range are
 * one key condition, newest first when read backwards.
 *
 * Counts `CUSTOMER#<id>` / `ORDER_COUNTS`, moved in the order's creation transaction:
 * `total`, and one top-level attribute per event (`event#<id>`) and per ticket type
 * (`type#<id>`, orders holding that type). Flat attributes, because ADD creates a
 * missing top-level number but cannot add into a map that does not exist yet.
 */
/** The counts' update of a new order: +1 in total, for its event and for each of its types. */
function countOrder(order: Order) {
  const names: Record<string, string> = { '#total': 'total', '#event': `event#${order.eventId}` };
  order.typeIds.forEach((typeId, i) => {
    names[`#type${i}`] = `type#${typeId}`;
  });
  const adds = Object.keys(names).map((name) => `${name} :one`);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.orderCounts(order.customerId),
      UpdateExpression: `SET entity = :entity ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':entity': 'OrderCounts', ':one': 1 },
    },
  };
}

/** One transaction: the order (new), the customer's link to its event, the customer's counts and the staff's (order-staff.ts). */
export async function commitNewOrder(order: Order, event: LinkedEvent): Promise<void> {
  await transactWrite(newOrderActions(order, event));
  await orderEntriesCaughtUp([order.id]);
}

/**
 * The new order's actions, for a caller writing them in a transaction of its own (the checkout's), who then writes its
 * list entries (order-list-entries.ts `orderEntriesCaughtUp`).
 */
export const newOrderActions = (order: Order, event: LinkedEvent) => [
  { Put: { TableName: tableName(), Item: orderItem(order), ConditionExpression: 'attribute_not_exists(PK)' } },
  ...customerActions(order, event),
  ...staffCountMoves(order, { n: 1, [`s#${order.status}`]: 1 }),
  ...(order.checkout?.attendees ? [attendeesPut(order.id, order.checkout.attendees)] : []),
];

/**
 * The customer's link to the event and their counts; none for a walk-up sale (WALK_UP_CUSTOMER): no account and no
 * portal reads them, and one customer's items written by the desk sales of every event would be items every event's
 * sales write in a transaction.
 */
const customerActions = (order: Order, event: LinkedEvent) =>
  order.customerId === WALK_UP_CUSTOMER ? [] : [customerEventLink(order.customerId, event), countOrder(order)];

/**
 * A pending order is still issuing: no failed sale's undo (undo-sale.ts) and no staff cancellation (cancel-order.ts)
 * started. Every ticket's issue, a late payment's hold and the activation are conditional on it, so once either
 * mark is written the tickets the order records are all it will ever have.
 */
export const STILL_ISSUING: OrderCondition = {
  expression: 'attribute_not_exists(#box.#undo) AND attribute_not_exists(#cancellation)',
  names: { '#box': 'boxOffice', '#undo': 'undo', '#cancellation': 'cancellation' },
  values: {},
};

/**
 * The order's part of a transaction issuing some of its tickets (shared/selling/use-cases/issue-order-tickets.ts):
 * `issuedTickets` (position → ticket id) with the chunk's added, conditional on the order still `pending`, still
 * issuing (no failed sale's `boxOffice.undo`, no staff `cancellation`) and recording as many as it did when read, so
 * issuing resumed after a failure, or by two calls at once, issues each attendee's ticket once, and none once an undo
 * or a cancel started. `ticketIds` given (the last chunk): the order moves `active` with them in the same write, its
 * counts with it, so an order is activated once, and only with every ticket issued.
 */
export function issuedTicketsActions(order: Order, issued: Record<string, number>, ticketIds?: number[]) {
  const read = Object.keys(order.issuedTickets ?? {}).length;
  const also: OrderCondition = {
    expression: `size(#issued) = :read AND ${STILL_ISSUING.expression}`,
    names: { '#issued': 'issuedTickets', ...STILL_ISSUING.names },
    values: { ':read': read },
  };
  if (ticketIds)
    return orderStatusMoveActions(order, { status: 'active' }, { SET: { issuedTickets: issued, ticketIds } }, also);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.order(order.id),
        UpdateExpression: 'SET #issued = :issued',
        ConditionExpression: `#status = :pending AND ${also.expression}`,
        ExpressionAttributeNames: { '#status': 'status', ...also.names },
        ExpressionAttributeValues: { ':issued': issued, ':pending': 'pending', ...also.values },
      },
    },
  ];
}

/**
 * Where a late payment's tickets were held again (`checkout.takes`; none: an empty list, the payment to refund), and
 * the promo code's use taken again (`use`: the order's `promo` moves to its shard), for the hold's own transaction:
 * conditional on the order still `pending`, still issuing and nothing recorded, so of two calls issuing one order the
 * first to record decides, a resumed issue finds it and never holds twice, and nothing is held for an order staff are
 * cancelling.
 */
export const orderTakesAction = (orderId: number, takes: readonly StockTake[], use?: PromoUse) => ({
  Update: {
    TableName: tableName(),
    Key: keys.order(orderId),
    UpdateExpression: `SET #checkout.#takes = :takes${use ? ', #promo = :promo' : ''}`,
    ConditionExpression: `#status = :pending AND attribute_not_exists(#checkout.#takes) AND ${STILL_ISSUING.expression}`,
    ExpressionAttributeNames: {
      '#checkout': 'checkout',
      '#takes': 'takes',
      '#status': 'status',
      ...(use ? { '#promo': 'promo' } : {}),
      ...STILL_ISSUING.names,
    },
    ExpressionAttributeValues: { ':takes': takes, ':pending': 'pending', ...(use ? { ':promo': use } : {}) },
  },
});

/** Records that a late payment's tickets could not be held again (`checkout.takes` empty); false when a decision was recorded first. */
export async function recordNoTakes(orderId: number): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(orderTakesAction(orderId, []).Update));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Stores the checkout's PaymentIntent id on its order (`checkout.paymentIntentId`), once: conditional on none stored,
 * so of two checkout calls racing the first decides and both answer its intent. The id stored after; undefined when
 * the order is not there.
 */
export async function recordPaymentIntent(orderId: number, intentId: string): Promise<string | undefined> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.order(orderId),
        UpdateExpression: 'SET #checkout.#intent = :intent',
        ConditionExpression: 'attribute_exists(#checkout) AND attribute_not_exists(#checkout.#intent)',
        ExpressionAttributeNames: { '#checkout': 'checkout', '#intent': 'paymentIntentId' },
        ExpressionAttributeValues: { ':intent': intentId },
      }),
    );
    return intentId;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (await getOrder(orderId))?.checkout?.paymentIntentId;
  }
}

export async function getOrder(id: number): Promise<Order | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.order(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}
