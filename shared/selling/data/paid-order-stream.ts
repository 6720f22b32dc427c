import type { DynamoDBRecord } from 'aws-lambda';
import { keys } from '../../data/keys.ts';

/** A paid order's entry into `pending` as the table stream carries it (PAID_ORDER_FILTER passes these). */
export interface PaidOrderChange {
  orderId: number;
  /** The stream record's id (Lambda's `batchItemFailures` name a DynamoDB record by its sequence number). */
  sequenceNumber: string;
}

/** `ORDER#`: keys.order's partition key without its id. */
const ORDER_PREFIX = keys.order(0).PK.slice(0, -1);

/**
 * The order a stream record names, or undefined when it is no order's item. Only the key is read: the consumer
 * reads the order itself (consistently), as a late record may carry an image older than the order is now.
 */
export function paidOrderOf(record: DynamoDBRecord): PaidOrderChange | undefined {
  const stream = record.dynamodb;
  if (stream?.Keys?.SK?.S !== keys.order(0).SK) return undefined;
  const pk = stream.Keys?.PK?.S ?? '';
  const orderId = pk.startsWith(ORDER_PREFIX) ? Number(pk.slice(ORDER_PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return undefined;
  return { orderId, sequenceNumber: stream.SequenceNumber ?? '' };
}
