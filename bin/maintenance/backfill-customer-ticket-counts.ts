/**
 * One-off, after the release that brought customers' ticket counts (README "After a deploy:
 * maintenance backfills"): sets every customer's count of live tickets (`CUSTOMER#<id>` /
 * `TICKETS#count`, see shared/data/keys.ts `customerTicketCount`) to a recount from their
 * tickets' list entries (GSI4), marked `kept`, so `GET /ticket?customerId=` answers an exact
 * `totalCount`. Customers created since the release have a kept count already. Run it after
 * backfill-ticket-lists.ts, with the stage's TABLE_NAME and AWS credentials:
 * `TABLE_NAME=... npx tsx bin/maintenance/backfill-customer-ticket-counts.ts [--restart]`.
 *
 * Idempotent: each count is Put whole with its recount, never added to. Resumable: customers
 * are done in id order and the last one finished is kept in the table
 * (`MAINTENANCE#backfill-customer-ticket-counts` / `CHECKPOINT#<run>`); a re-run goes on after
 * it unless `--restart`. A sale for a customer while it is being recounted may be left out of
 * its count: run it in a quiet hour, or re-run. Maintenance reads (a Scan for the customer
 * ids, each customer's list entries to their end), never a request's.
 */
import { pathToFileURL } from 'node:url';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyCondition, withValues } from '#shared/data/key-conditions';
import { checkpointOf, progressBar, recordIds, type RunOptions } from './runs.ts';

export interface CustomerCountBackfillOutcome {
  customers: number;
  /** Live tickets counted, over every customer done. */
  tickets: number;
}

export interface CustomerCountBackfillOptions extends RunOptions {
  /** Only these customers (tests); default every customer. */
  customers?: number[];
}

const PAGE_SIZE = 500;
type Item = Record<string, unknown>;

/** Recounts the customers in id order, going on after the run's checkpoint unless `restart`. */
export async function backfillCustomerTicketCounts({
  customers,
  run = 'all',
  restart = false,
  progress,
}: CustomerCountBackfillOptions = {}): Promise<CustomerCountBackfillOutcome> {
  const all = (customers ?? (await recordIds('CUSTOMER'))).sort((a, b) => a - b);
  const checkpoint = checkpointOf('backfill-customer-ticket-counts', run, 'lastCustomerId');
  const after = restart ? 0 : ((await checkpoint.last()) ?? 0);
  const todo = all.filter((customerId) => customerId > after);
  const outcome: CustomerCountBackfillOutcome = { customers: 0, tickets: 0 };
  for (const customerId of todo) {
    const n = await liveTickets(customerId);
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.customerTicketCount(customerId), entity: 'CustomerTicketCount', n, kept: true },
      }),
    );
    outcome.customers += 1;
    outcome.tickets += n;
    await checkpoint.done(customerId);
    progress?.(all.length - todo.length + outcome.customers, all.length);
  }
  return outcome;
}

/** The customer's live tickets: their list entries on GSI4 (or ticket items stored before entries), counted page by page. */
async function liveTickets(customerId: number): Promise<number> {
  let n = 0;
  let start: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...withValues(keyCondition(keys.customerTickets(customerId)), {
          ':entry': 'TicketPurchaseEntry',
          ':ticket': 'Ticket',
        }),
        FilterExpression: '#entity IN (:entry, :ticket)',
        ExpressionAttributeNames: { '#entity': 'entity' },
        Select: 'COUNT',
        Limit: PAGE_SIZE,
        ExclusiveStartKey: start,
      }),
    );
    n += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return n;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcome = await backfillCustomerTicketCounts({
    restart: process.argv.includes('--restart'),
    progress: progressBar('customers'),
  });
  process.stderr.write('\n');
  console.log(JSON.stringify(outcome, null, 2));
}
