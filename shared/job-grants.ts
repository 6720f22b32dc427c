import type { GlobalIndexName } from './data/table-schema.ts';

/** A function's grant on the table: its actions, and the GSIs it queries. */
export interface TableGrant {
  actions: readonly string[];
  indexes?: readonly GlobalIndexName[];
}

/**
 * The deployed functions that serve no route, and their grants on the table (infra/webhooks.ts,
 * infra/migrations.ts): the table stream's consumers (webhooks, paid orders' issue), the webhook dispatcher, the reservations' lapsing job (each by their handlers' names in
 * functions/jobs/, and run in-process as themselves by bin/local/webhook-workers.ts, so the tests record them as they
 * record the routes), and the migrations runner. The runner alone may Scan (a backfill reads every item) and
 * describe the table (`npm run migrations` shows its indexes); its grant is read from its catalogue's code, not
 * recorded (the tests apply the migrations to an empty table, in no test file).
 */
export const jobs = {
  // Webhook deliveries, and the changed tickets' list entries, positions and search entries (BatchWriteItem, the blocks'
  // conditional UpdateItem and its GetItem when a mark moved: shared/lists/list-catch-up.ts); the orders' list and
  // status entries their writers did not put (BatchGetItem, PutItem: shared/selling/data/order-list-entries.ts).
  'ticket-changes': { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'] },
  dispatch: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['GSI1', 'GSI2', 'GSI3'] },
  // A paid order's issue (shared/selling/use-cases/issue-paid-orders.ts): what the webhook's row held while it issued.
  'issue-paid-orders': {
    // Query: the event's ticket types an invoice names (shared/selling/use-cases/invoices.ts).
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    indexes: ['GSI1'],
  },
  'release-reservations': {
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    indexes: ['GSI1', 'GSI6'],
  },
  migrations: {
    actions: ['GetItem', 'BatchGetItem', 'Query', 'Scan', 'PutItem', 'UpdateItem', 'DeleteItem', 'DescribeTable'],
    indexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'],
  },
} as const satisfies Record<string, TableGrant>;
export type JobName = keyof typeof jobs;
