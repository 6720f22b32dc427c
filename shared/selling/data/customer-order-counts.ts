import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { fromTicketItem } from '../../tickets/data/ticket-records.ts';
import { batchGet, db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * A customer's kept order counts (`CUSTOMER#<id>` / `ORDER_COUNTS`, moved by an order's creation: orders.ts
 * `countOrder`) as the portal and the staff read them, apart from the order's writes so a request that only writes
 * orders (the checkout) does not reach the tickets' reads.
 */

export interface OrderCounts {
  total: number;
  byEvent: Record<string, number>;
  byType: Record<string, number>;
}

function toCounts(item: Record<string, unknown> = {}): OrderCounts {
  const counts: OrderCounts = { total: Number(item.total ?? 0), byEvent: {}, byType: {} };
  for (const [name, value] of Object.entries(item)) {
    const [kind, id] = name.split('#');
    if (kind === 'event' && id) counts.byEvent[id] = Number(value);
    if (kind === 'type' && id) counts.byType[id] = Number(value);
  }
  return counts;
}

/** The customer's kept counts: one GetItem. */
export async function readOrderCounts(customerId: number): Promise<OrderCounts> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.orderCounts(customerId) }));
  return toCounts(Item);
}

/**
 * The tickets of a page of orders and, when `withCounts`, the customer's counts: one batch
 * read of both (so a page with tickets costs one Query and one BatchGetItem).
 */
export async function readTicketsAndCounts(
  customerId: number,
  ticketIds: number[],
  withCounts: boolean,
): Promise<{ tickets: Map<number, TicketRecord>; counts?: OrderCounts }> {
  const items = await batchGet([
    ...ticketIds.map((id) => keys.ticket(id)),
    ...(withCounts ? [keys.orderCounts(customerId)] : []),
  ]);
  const countsItem = withCounts ? items.pop() : undefined;
  const tickets = new Map(items.flatMap((item) => (item ? [[Number(item.id), fromTicketItem(item)] as const] : [])));
  return { tickets, ...(withCounts ? { counts: toCounts(countsItem) } : {}) };
}
