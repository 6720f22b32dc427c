/**
 * One-off, after the release that brought customers' ticket counts, and again after the one
 * that brought their list positions (README "Data migrations"): sets
 * every customer's count of live tickets (`CUSTOMER#<id>` / `TICKETS#count`, see
 * shared/data/keys.ts `customerTicketCount`) and their list positions (`POS#tickets#<block>`
 * and `POS#span#tickets#<span>`, see shared/data/list-positions.ts) to a recount from their
 * tickets' list entries (GSI4), then marks the count `kept` and `positionsKept`, so
 * `GET /ticket?customerId=` answers an exact `totalCount` and any `_offset`. Customers created
 * since the release have both already. Migration 4 (catalogue.ts), after backfill-ticket-lists.ts.
 *
 * Idempotent: each count and position is Put whole with its recount (positions no ticket holds
 * any more are deleted), never added to. Resumable: customers are done in id order and the
 * last one finished is kept in the table (`MAINTENANCE#backfill-customer-ticket-counts` /
 * `CHECKPOINT#<run>`); a re-run goes on after it unless `restart`. A sale for a customer
 * while it is being recounted may be left out of its count: run it in a quiet hour, or re-run.
 * Maintenance reads (a Scan for the customer ids, each customer's list entries to their end),
 * never a request's.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { positionKey } from '#shared/data/list-positions';
import { listedTicketId } from '#shared/data/ticket-records';
import { blockOf, CUSTOMER_COUNTER, CUSTOMER_LIST, spanList, spanOf } from '#shared/domain/list-positions';
import { checkpointOf, indexItems, recordIds, rewriteItems, type RunOptions, type Stopped } from './runs.ts';

export interface CustomerCountBackfillOutcome extends Stopped {
  customers: number;
  /** Live tickets counted, over every customer done. */
  tickets: number;
  /** Position blocks and spans written (recounted) or deleted (no ticket holds them now). */
  positions: number;
}

export interface CustomerCountBackfillOptions extends RunOptions {
  /** Only these customers (tests); default every customer. */
  customers?: number[];
}

type Item = Record<string, unknown>;

/** Recounts the customers in id order, going on after the run's checkpoint unless `restart`. */
export async function backfillCustomerTicketCounts({
  customers,
  run = 'all',
  restart = false,
  progress,
  stop,
}: CustomerCountBackfillOptions = {}): Promise<CustomerCountBackfillOutcome> {
  const all = (customers ?? (await recordIds('CUSTOMER'))).sort((a, b) => a - b);
  const checkpoint = checkpointOf('backfill-customer-ticket-counts', run, 'lastCustomerId');
  const after = restart ? 0 : ((await checkpoint.last()) ?? 0);
  const todo = all.filter((customerId) => customerId > after);
  const outcome: CustomerCountBackfillOutcome = { customers: 0, tickets: 0, positions: 0 };
  for (const customerId of todo) {
    if (stop?.()) return { ...outcome, stopped: true };
    const { n, positions } = await recount(customerId);
    // The positions first: the mark on the count says they hold every ticket.
    outcome.positions += await rewriteItems(keys.customerItems(customerId), keys.positionsPrefix, positions);
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.customerTicketCount(customerId),
          entity: 'CustomerTicketCount',
          n,
          kept: true,
          positionsKept: true,
        },
      }),
    );
    outcome.customers += 1;
    outcome.tickets += n;
    await checkpoint.done(customerId);
    progress?.(all.length - todo.length + outcome.customers, all.length);
  }
  return outcome;
}

/** The customer's live tickets (their list entries on GSI4, or ticket items stored before entries), and their position items by sort key. */
async function recount(customerId: number): Promise<{ n: number; positions: Map<string, Item> }> {
  const holder = { customerId };
  const positions = new Map<string, Item>();
  const add = (list: string, unit: number) => {
    const { SK } = positionKey(holder, list, unit);
    const item = positions.get(SK) ?? { entity: 'ListPosition', [CUSTOMER_COUNTER]: 0 };
    item[CUSTOMER_COUNTER] = Number(item[CUSTOMER_COUNTER]) + 1;
    positions.set(SK, item);
  };
  let n = 0;
  for await (const item of indexItems(keys.customerTickets(customerId), 'TicketPurchaseEntry', 'Ticket')) {
    const block = blockOf(listedTicketId(item));
    add(CUSTOMER_LIST, block);
    add(spanList(CUSTOMER_LIST), spanOf(block));
    n += 1;
  }
  return { n, positions };
}
