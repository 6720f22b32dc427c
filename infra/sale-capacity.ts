/**
 * What a stage needs for the on-sale its file expects (`policy.onSale`): the concurrency of the functions on the
 * sale's path and the table's warm throughput, by arithmetic from the sale's rates (infra/README.md "Sized for the
 * rush"). Pure, so the stack, preflight and the tests read the same figures.
 */

/** The rush a stage is sized for: `events` selling at once, each at these rates (the stage file's `policy.onSale`). */
export interface OnSale {
  events: number;
  holdsPerSecond: number;
  /** Paid orders of two tickets a second (the write-unit budget below is per such order). */
  paidOrdersPerSecond: number;
}

/** The functions on a sale's path, by handler (shared/routes.ts) or job (shared/job-grants.ts). */
export const SALE_FUNCTIONS = {
  hold: 'my-account/reservation-create',
  checkout: 'my-account/reservation-checkout',
  webhook: 'payments/stripe-webhook',
  issue: 'issue-paid-orders',
} as const;
export type SaleFunction = keyof typeof SALE_FUNCTIONS;

/**
 * Seconds each takes per request (per order for `issue`), warm, in the table's region: what Little's law multiplies.
 * Estimates from the calls each makes one after another (~10 ms a DynamoDB call, ~300 ms a Stripe call), not
 * measured in AWS: the hold's few reads and one transaction; the checkout's transaction and the PaymentIntent's
 * create at Stripe; the webhook's signature check, one read and one transaction; an order's issue (reservation,
 * a transaction per ticket, the activation, the confirmation's reads and SES). A deployed bench replaces them.
 */
export const SECONDS_PER_CALL: Record<SaleFunction, number> = { hold: 0.1, checkout: 0.5, webhook: 0.1, issue: 0.5 };

/**
 * Room above the mean: a rush is not a steady rate (a second at twice the mean is common at the opening), and a
 * cold start or a slow dependency holds an execution longer. A function reserved at its mean throttles at the
 * first wave; twice the mean takes it.
 */
export const BURST_HEADROOM = 2;

/**
 * Write units a hold and a paid order of two tickets are declared at, for the table's warm throughput. The sale writes
 * 10 a hold and about 151 a paid order (`npm run bench -- --heat`, bin/bench/results.md "On-sale heat";
 * write-units.test.ts holds 10 and 150 exactly); the paid order is declared at 241, a third above it, on purpose: a
 * table warmed to 164,600 units a second has about 165 partitions, so as many stream shards, and the ticket changes'
 * consumer keeps pace on them at its parallelization factor of 4 (`ticketChangeCapacity`, asserted in
 * test/infra/webhooks.test.ts). Declaring what the sale writes (about 110,600) leaves 110 shards, where that consumer
 * would need a higher factor and the Lambda concurrency it brings. Warm throughput only increases
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/update-warm-throughput.html): choose it before a
 * stage's first deploy.
 */
export const WRITE_UNITS = { hold: 10, paidOrder: 241 } as const;
/**
 * Read units: a hold reads its event, types and stock (~10 strongly consistent units); a paid order's checkout,
 * claim, issue and confirmation read its reservation, order, event and tickets (~60). Estimates, as SECONDS_PER_CALL.
 */
export const READ_UNITS = { hold: 10, paidOrder: 60 } as const;

/**
 * Concurrent executions each sale function needs (Little's law: in flight = arrivals a second × seconds each), with
 * BURST_HEADROOM; every event of the sale counted.
 */
export function saleConcurrency(sale: OnSale): Record<SaleFunction, number> {
  const perSecond: Record<SaleFunction, number> = {
    hold: sale.holdsPerSecond * sale.events,
    checkout: sale.paidOrdersPerSecond * sale.events,
    webhook: sale.paidOrdersPerSecond * sale.events,
    issue: sale.paidOrdersPerSecond * sale.events,
  };
  const needed = (fn: SaleFunction) => Math.ceil(perSecond[fn] * SECONDS_PER_CALL[fn] * BURST_HEADROOM);
  return { hold: needed('hold'), checkout: needed('checkout'), webhook: needed('webhook'), issue: needed('issue') };
}

/**
 * A new on-demand table's own warm throughput (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html):
 * a declared figure below it changes nothing, and DynamoDB refuses one below it.
 */
export const ON_DEMAND_WARM_FLOOR = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;

/** The warm throughput the table (and each index, which a write can reach as often as the table) needs for the sale. */
export function saleWarmThroughput(sale: OnSale): { readUnitsPerSecond: number; writeUnitsPerSecond: number } {
  const units = (per: { hold: number; paidOrder: number }) =>
    sale.events * (sale.holdsPerSecond * per.hold + sale.paidOrdersPerSecond * per.paidOrder);
  return {
    readUnitsPerSecond: Math.max(ON_DEMAND_WARM_FLOOR.readUnitsPerSecond, units(READ_UNITS)),
    writeUnitsPerSecond: Math.max(ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond, units(WRITE_UNITS)),
  };
}

/**
 * Seconds a batch of the ticket changes' consumer (infra/webhooks.ts) takes at most while it keeps pace: its search
 * step (one BatchGetItem, the tickets' Queries and BatchWriteItems each sent at once: ~0.1 s) and then the webhooks'
 * first attempts, which end within 1 s (shared/webhooks/services/webhook-settings.ts firstAttemptsMs). An estimate, as
 * SECONDS_PER_CALL.
 */
export const TICKET_CHANGE_BATCH_SECONDS = 1.2;
/** Write units a second one table partition takes: a table warmed to W has about W / 1,000 partitions, each a stream shard. */
export const PARTITION_WRITE_UNITS = 1_000;

/**
 * The table stream's records a paid order of two tickets hands the ticket changes' consumer: each ticket's creation,
 * and the order item's three writes (created, `pending`, `active`), whose list and status entries the consumer catches
 * up (shared/selling/data/order-list-entries.ts).
 */
export const STREAM_RECORDS_PER_PAID_ORDER = 5;

/**
 * Whether the ticket changes' consumer keeps pace with the sale, so the lists lag by its poll and one batch
 * (shared/lists/README.md "How long the lists lag"): the sale's records a second (STREAM_RECORDS_PER_PAID_ORDER; with
 * BURST_HEADROOM) against what its mapping reads, `parallelizationFactor` batches of
 * `batchSize` at once per stream shard, each within TICKET_CHANGE_BATCH_SECONDS, over the shards a table warmed to
 * `warmWriteUnits` has.
 */
export function ticketChangeCapacity(
  sale: OnSale,
  mapping: { batchSize: number; parallelizationFactor: number },
  warmWriteUnits: number,
): { needed: number; shards: number; perShard: number; capacity: number } {
  const needed = sale.events * sale.paidOrdersPerSecond * STREAM_RECORDS_PER_PAID_ORDER * BURST_HEADROOM;
  const shards = Math.floor(warmWriteUnits / PARTITION_WRITE_UNITS);
  const perShard = (mapping.batchSize * mapping.parallelizationFactor) / TICKET_CHANGE_BATCH_SECONDS;
  return { needed, shards, perShard, capacity: shards * perShard };
}
