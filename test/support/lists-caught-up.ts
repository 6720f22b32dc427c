import { catchUpOrders, catchUpTickets } from '#shared/webhooks/use-cases/jobs';
import { runAs } from '../../bin/local/invoke.ts';

/**
 * The table stream's consumer's lists step for these tickets, as the function `ticket-changes` (its grant recorded):
 * what the consumer does when it reads their changes (shared/lists/README.md "What the stream's consumer writes"): their
 * list entries, positions and search entries. The tests' shared table has no stream (test/support/env.ts), so a test
 * that lists or searches right after a write hands the written tickets to it, as paid-order-issuing.ts hands a paid
 * order to the issuing consumer; the stream's own path is tested on a stream table
 * (test/integration/search-entries-stream.test.ts).
 */
export const listsCaughtUp = (tickets: readonly (number | { id: number })[]): Promise<void> =>
  runAs('ticket-changes', () =>
    catchUpTickets(tickets.map((ticket) => (typeof ticket === 'number' ? ticket : ticket.id))),
  );

/**
 * The same consumer's step for orders: their list entries caught up with them (shared/selling/data/order-list-entries.ts),
 * which their writers put after the order's transaction; what the consumer does for a writer that stopped in between.
 */
export const ordersCaughtUp = (orderIds: readonly number[]): Promise<void> =>
  runAs('ticket-changes', () => catchUpOrders(orderIds));
