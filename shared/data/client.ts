import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type DeleteCommand,
  PutCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as z from '../schema.ts';
import { requireSection } from '../config.ts';
import { CLIENT_SETTINGS, answeringOutages, clientOptions, withoutSdkLogging } from '../aws-clients.ts';
import { DependencyUnavailable } from '../errors.ts';
import { keyCondition, type Partition } from './key-conditions.ts';

/**
 * The one DynamoDB client of a function. Endpoints come from the SDK's own environment
 * variables (`AWS_ENDPOINT_URL_DYNAMODB` locally), so no code path differs from AWS.
 * Retries and timeouts: aws-clients.ts; throttling or a timeout that outlasts
 * them is a 503 (the DocumentClient shares the inner client's middleware stack). No SDK logger: aws-clients.ts
 * `withoutSdkLogging`.
 */
export const db = DynamoDBDocumentClient.from(
  answeringOutages(withoutSdkLogging(new DynamoDBClient(clientOptions('database'))), 'database'),
  {
    marshallOptions: { removeUndefinedValues: true },
  },
);

// Only functions whose route row uses the table get TABLE_NAME (infra/), so it is checked here.
const { TABLE_NAME } = requireSection('the table', z.object({ TABLE_NAME: z.string().check(z.minLength(1)) }));
export const tableName = (): string => TABLE_NAME;

/** One action of a TransactWriteItems. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const LABEL = Symbol('the label of a transaction action');

/**
 * `action` named `label`: once its transaction is cancelled, `TransactionCancelled.conditionFailed(label)` says
 * whether its condition failed, however the actions around it are arranged: the one way a caller learns which of
 * its conditions failed (never by an action's position). Several actions may share a label. The label rides on a
 * symbol, which the DocumentClient never sends.
 */
export function labelled<A extends object>(label: string, action: A): A {
  return { ...action, [LABEL]: label };
}

const labelOf = (action: object): string | undefined => (action as { [LABEL]?: string })[LABEL];

/** A transaction was cancelled: which labelled actions' conditions failed is read by their labels. */
export class TransactionCancelled extends Error {
  private readonly failedLabels: ReadonlySet<string>;

  constructor(
    readonly reasons: CancellationReason[],
    labels: readonly (string | undefined)[],
  ) {
    super(`Transaction cancelled: ${reasons.map((reason) => reason.Code ?? 'None').join(', ')}`);
    const failed = labels.filter((label, i) => label !== undefined && reasons[i]?.Code === 'ConditionalCheckFailed');
    this.failedLabels = new Set(failed as string[]);
  }

  /** Whether the condition of an action labelled `label` failed. */
  conditionFailed(label: string): boolean {
    return this.failedLabels.has(label);
  }

  /** Whether any action's condition failed, labelled or not. */
  get anyConditionFailed(): boolean {
    return this.reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
  }
}

/**
 * Still colliding with other transactions after transactWrite's retries: nothing was
 * written; answered 503 + Retry-After (a caller that re-decided on a fresh read would
 * nest a second round of retries inside the function's timeout).
 */
export class TransactionConflicts extends DependencyUnavailable {
  constructor(readonly reasons: CancellationReason[]) {
    super('database', CLIENT_SETTINGS.database.retryAfterSeconds);
  }
}

export const MAX_CONFLICT_RETRIES = 10;
/** DynamoDB's limits: actions per TransactWriteItems, keys per BatchGetItem. */
export const MAX_TRANSACTION_ITEMS = 100;
const BATCH_GET_KEYS = 100;
const MAX_UNPROCESSED_RETRIES = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Full-jitter exponential backoff: up to 10 ms × 2^attempt, capped at 1 s. The house's one backoff. */
export const backoff = (attempt: number) => sleep(Math.random() * Math.min(1000, 10 * 2 ** attempt));

/** Sends a conditional write (a put, an update, a delete): false when its condition failed (nothing written), for the caller to decide on. */
export async function writtenIf(command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    // The DocumentClient's send is typed per command class.
    if (command instanceof PutCommand) await db.send(command);
    else if (command instanceof UpdateCommand) await db.send(command);
    else await db.send(command);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * TransactWriteItems, retried with jittered exponential backoff when it collided with
 * another transaction on the same item (a hot counter): cancelled by conflicts only,
 * nothing was written, so a retry is safe. A condition failure is not retried: it
 * surfaces as `TransactionCancelled`, read by the actions' labels (`labelled`), for the caller to map to 404/409. Conflicts that
 * outlast MAX_CONFLICT_RETRIES are `TransactionConflicts`: 503 with Retry-After.
 */
export async function transactWrite(items: readonly TransactItem[]): Promise<void> {
  if (items.length > MAX_TRANSACTION_ITEMS) {
    // A programming error, not bad input: callers bound what one transaction holds.
    throw new Error(
      `A transaction holds at most ${MAX_TRANSACTION_ITEMS} actions; this one has ${items.length}. Split the change.`,
    );
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: [...items] }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
      const conditionFailed = reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
      if (!conflict || conditionFailed) throw new TransactionCancelled(reasons, items.map(labelOf));
      if (attempt >= MAX_CONFLICT_RETRIES) throw new TransactionConflicts(reasons);
      await backoff(attempt);
    }
  }
}

/**
 * BatchGetItem for any number of keys: chunks of 100 sent together, `UnprocessedKeys` retried with
 * jittered exponential backoff. Answers one entry per key, in the keys' order, undefined
 * where no item exists.
 */
export async function batchGet(
  keys: readonly Record<string, unknown>[],
  options: { consistent?: boolean; projection?: string; names?: Record<string, string> } = {},
): Promise<(Record<string, unknown> | undefined)[]> {
  const table = tableName();
  const keyOf = (key: Record<string, unknown>) => `${key.PK}\u0000${key.SK}`;
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((key) => [keyOf(key), { PK: key.PK, SK: key.SK }])).values()];
  // The chunks go out together: a caller's many keys cost one round trip, not one per 100.
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < unique.length; start += BATCH_GET_KEYS)
    chunks.push(unique.slice(start, start + BATCH_GET_KEYS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt > MAX_UNPROCESSED_RETRIES)
          throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${attempt} attempts.`);
        if (attempt > 0) await backoff(attempt);
        const { Responses, UnprocessedKeys } = await db.send(
          new BatchGetCommand({
            RequestItems: {
              [table]: {
                Keys: pending,
                ConsistentRead: options.consistent,
                // The keys ride along so each answer can be matched to its key.
                ...(options.projection
                  ? { ProjectionExpression: `PK, SK, ${options.projection}`, ExpressionAttributeNames: options.names }
                  : {}),
              },
            },
          }),
        );
        for (const item of Responses?.[table] ?? []) found.set(keyOf(item), item);
        pending = UnprocessedKeys?.[table]?.Keys ?? [];
      }
    }),
  );
  return keys.map((key) => found.get(keyOf(key)));
}

/** BatchWriteItem takes at most 25 puts and deletes a request. */
const BATCH_WRITE_ITEMS = 25;

/**
 * BatchWriteItem for any number of plain puts and deletes (no condition: each must be right whatever is stored):
 * chunks of 25 sent together, `UnprocessedItems` retried with jittered exponential backoff.
 */
export async function batchWrite(
  writes: readonly ({ put: Record<string, unknown> } | { delete: Record<string, unknown> })[],
): Promise<void> {
  const table = tableName();
  const requests = writes.map((write) =>
    'put' in write ? { PutRequest: { Item: write.put } } : { DeleteRequest: { Key: write.delete } },
  );
  const chunks: (typeof requests)[] = [];
  for (let start = 0; start < requests.length; start += BATCH_WRITE_ITEMS)
    chunks.push(requests.slice(start, start + BATCH_WRITE_ITEMS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt > MAX_UNPROCESSED_RETRIES)
          throw new Error(`BatchWriteItem left ${pending.length} writes unprocessed after ${attempt} attempts.`);
        if (attempt > 0) await backoff(attempt);
        const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (UnprocessedItems?.[table] ?? []) as typeof chunk;
      }
    }),
  );
}

/** The one item a lookup index holds under `partition` (unique keys such as a login), or undefined. */
export async function findOneByIndex(partition: Partition): Promise<Record<string, unknown> | undefined> {
  const { Items } = await db.send(new QueryCommand({ TableName: tableName(), ...keyCondition(partition), Limit: 1 }));
  return Items?.[0];
}

/**
 * A Query read page by page until the partition is exhausted or `enough` items came back.
 * Without a filter each page asks only for what is still missing; with one, `Limit`
 * would count items before filtering, so pages are read whole.
 */
export async function queryPages(
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  enough?: number,
): Promise<Record<string, unknown>[]> {
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
