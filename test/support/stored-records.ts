import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyCondition } from '#shared/data/key-conditions';
import { fromItem } from '#shared/selling/data/order-items';
import { listedRecords, MAX_ORDER_TICKETS } from '#shared/tickets/data/ticket-records';
import type { Order } from '#shared/selling/domain/order';
import type { TicketRecord } from '#shared/tickets/domain/ticket';

/** Reads of what the API stored, for tests that check the table itself (no route answers these). */

/** An order as stored, read consistently. */
export async function findOrder(id: number): Promise<Order | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.order(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/** An order's live tickets in id order: one Query of its list. */
export async function listOrderTickets(orderId: number): Promise<TicketRecord[]> {
  const { Items } = await db.send(
    new QueryCommand({ TableName: tableName(), ...keyCondition(keys.orderTickets(orderId)), Limit: MAX_ORDER_TICKETS }),
  );
  return listedRecords(Items ?? []);
}
