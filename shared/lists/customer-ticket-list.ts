import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CUSTOMER_LIST } from './list-position-plan.ts';
import { MAX_LIST_READ } from './older-ticket-list.ts';
import { PROCESS_STATES, type TicketRecord } from '../tickets/domain/ticket.ts';
import { db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { startOfOffset } from './list-position-reads.ts';
import { listCustomerTickets } from '../tickets/data/ticket-records.ts';

/**
 * `GET /ticket?customerId=` alone (older-ticket-pages.ts `customerPage`):
 * the customer's kept ticket count, and a page at any `_offset` from their kept list positions.
 * The first page and a page by `_cursor` are read as any served list (ticket-list-queries.ts
 * `customerTickets`).
 */

/** How many live tickets the customer holds across events (keys.ts `customerTicketCount`; none for an unknown id). */
export async function customerTicketCount(customerId: number): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.customerTicketCount(customerId) }));
  return Number(Item?.n ?? 0);
}

/**
 * A customer's page at `offset` of their `total` live tickets, from their kept list positions
 * (list-positions.ts): the block holding the position is found from the counts (a few spans,
 * then the blocks of one), its entries are read from its start (fewer than a block skipped),
 * and only the page's tickets are batch-read. `more` when a ticket follows the page;
 * undefined when the counts moved so far meanwhile that the skip would pass one read.
 */
export async function customerTicketsAt(
  customerId: number,
  total: number,
  offset: number,
  limit: number,
): Promise<{ records: TicketRecord[]; more: boolean } | undefined> {
  const start = await startOfOffset([{ customerId, list: CUSTOMER_LIST }], PROCESS_STATES, offset, total);
  if (start.skip + limit + 1 > MAX_LIST_READ) return undefined;
  const page = await listCustomerTickets(customerId, { limit, offset: start.skip, after: start.after });
  return { records: page.items, more: page.more };
}
