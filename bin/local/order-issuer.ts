import { PAID_ORDER_FILTER } from '#shared/selling/data/paid-order-filter';
import { handler as issuePaidOrders } from '../../functions/jobs/issue-paid-orders.ts';
import { type LocalConsumer, startLocalConsumer } from './stream-consumer.ts';

/**
 * The paid orders' issue behind the Stripe webhook (infra/paid-order-issuing.ts), in-process for `npm start`, the
 * on-sale load and the tests that read a stream: the same handler fed the records the event source mapping's filter
 * (PAID_ORDER_FILTER) passes. The sweep of stuck orders issues the orders of a batch it gives up on. Load it after
 * the environment is set: it imports shared/.
 */
export type OrderIssuer = LocalConsumer;

export const startOrderIssuer = (options: {
  tableName: string;
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
  maxRetries?: number;
}): Promise<OrderIssuer> =>
  startLocalConsumer({
    ...options,
    job: 'issue-paid-orders',
    handler: issuePaidOrders,
    filter: PAID_ORDER_FILTER,
    givenUpMessage: 'paid orders given up by the issuing consumer: the sweep issues them',
  });
