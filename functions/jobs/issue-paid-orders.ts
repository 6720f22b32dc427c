import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { issuePaidOrdersJob } from '#shared/selling/use-cases/issue-paid-orders';

/**
 * The issuing consumer (infra/paid-order-issuing.ts; locally bin/local/order-issuer.ts feeds it the same records):
 * the table stream's paid orders entering `pending` (the Stripe webhook's claim) get their tickets. Not a route: a
 * job beside the route handlers (README here). An order that could not be issued is reported by its record's
 * sequence number, and Lambda retries the batch from it.
 */
export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => issuePaidOrdersJob(event);
