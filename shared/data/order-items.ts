import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutAttendee, Order } from '../domain/order.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A checkout's attendees are an item of their own (`ORDER#<id>` / `ATTENDEES`, no index), put once with the order:
 * the order sits whole in six indexes, so each of its writes costs its size seven times over (doubled in a
 * transaction), and two attendees' fields take it past 1 KB, doubling every write of it. Read when its tickets are
 * issued or its unissued places given back (`readCheckoutAttendees`).
 */
export function withoutAttendees(order: Order): Order {
  if (!order.checkout?.attendees) return order;
  const { attendees: _attendees, ...checkout } = order.checkout;
  return { ...order, checkout };
}

export const attendeesPut = (orderId: number, attendees: readonly CheckoutAttendee[]) => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.orderAttendees(orderId), entity: 'OrderAttendees', attendees },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** A checkout order's attendees: on the order when it was written with them, else their own item (none: empty). */
export async function readCheckoutAttendees(order: Order): Promise<CheckoutAttendee[]> {
  if (order.checkout?.attendees) return order.checkout.attendees;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.orderAttendees(order.id), ConsistentRead: true }),
  );
  return (Item?.attendees ?? []) as CheckoutAttendee[];
}
