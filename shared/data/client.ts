import { DynamoDBClient, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as z from '../schema.ts';
import { requireSection } from '../config.ts';

/**
 * The one DynamoDB client of a function. Endpoints come from the SDK's own environment
 * variables (`AWS_ENDPOINT_URL_DYNAMODB` locally), so no code path differs from AWS.
 */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

// Only functions whose route row uses the table get TABLE_NAME (infra/), so it is checked here.
const { TABLE_NAME } = requireSection('the table', z.object({ TABLE_NAME: z.string().check(z.minLength(1)) }));
export const tableName = (): string => TABLE_NAME;

/** A transaction was cancelled; `reasons[i]` is the reason for the i-th action. */
export class TransactionCancelled extends Error {
  constructor(readonly reasons: CancellationReason[]) {
    super(`Transaction cancelled: ${reasons.map((reason) => reason.Code ?? 'None').join(', ')}`);
  }

  /** Whether the condition of the i-th action failed. */
  conditionFailed(index: number): boolean {
    return this.reasons[index]?.Code === 'ConditionalCheckFailed';
  }
}

const MAX_CONFLICT_RETRIES = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * TransactWriteItems, retried with jittered exponential backoff when it collided with
 * another transaction on the same item (a hot counter). A condition failure is not
 * retried: it surfaces as `TransactionCancelled` for the caller to map to 404/409.
 */
export async function transactWrite(items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
      const conditionFailed = reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
      if (!conflict || conditionFailed || attempt >= MAX_CONFLICT_RETRIES) throw new TransactionCancelled(reasons);
      await sleep(Math.random() * Math.min(1000, 10 * 2 ** attempt));
    }
  }
}

/**
 * A Query read page by page until the partition is exhausted or `enough` items came back.
 * Without a filter each page asks only for what is still missing; with one, `Limit`
 * would count items before filtering, so pages are read whole.
 */
export async function queryPages(input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>, enough?: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const missing = enough === undefined || input.FilterExpression ? undefined : enough - items.length;
    const page = await db.send(new QueryCommand({ ...input, Limit: missing, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (enough === undefined || items.length < enough));
  return items;
}
