import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyCondition, type Partition, withValues } from '#shared/data/key-conditions';

/**
 * What the migrations' backfills share (bin/maintenance/migrations/catalogue.ts): the ids they
 * go through (a Scan of one kind of record), a run's checkpoint (the last id it finished, or a
 * Scan's next key, kept in the table under `MAINTENANCE#<command>` / `CHECKPOINT#<run>`), a
 * recount's reads of an index to its end and its rewrite of a partition's kept items.
 */

const PAGE_SIZE = 500;
type Item = Record<string, unknown>;

/** How a resumable backfill is run. */
export interface RunOptions {
  /** The checkpoint's name: a run resumes after the last id its name finished. */
  run?: string;
  restart?: boolean;
  progress?: (done: number, total: number) => void;
  /** Asked before each unit of work (an event, a customer, a page): true stops the run there, its checkpoint kept. */
  stop?: () => boolean;
}

/** Set on a backfill's outcome when `stop` ended it before its end: the next run with the same name goes on. */
export interface Stopped {
  stopped?: true;
}

/** Every id of the records stored under sort key `recordKey` (`EVENT`, `CUSTOMER`): a Scan, maintenance only. */
export async function recordIds(recordKey: string): Promise<number[]> {
  const ids: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'SK = :sk',
        ExpressionAttributeValues: { ':sk': recordKey },
        ProjectionExpression: 'id',
        Limit: PAGE_SIZE,
        ExclusiveStartKey: start,
      }),
    );
    ids.push(...(page.Items ?? []).map((item) => Number(item.id)));
    start = page.LastEvaluatedKey;
  } while (start);
  return ids;
}

/** A named run of a command: the last id it finished (undefined before its first, kept as `field`), and how to record the next. */
export const checkpointOf = (command: string, run: string, field: string) => {
  const saved = savedValue<number>(command, run, field);
  return { last: saved.read, done: saved.write };
};

/**
 * Where a named run of a Scan goes on: the next page's start key (`null` once the Scan reached
 * its end), undefined before the run's first page.
 */
export const scanCheckpointOf = (command: string, run: string) => {
  const saved = savedValue<Record<string, unknown> | null>(command, run, 'nextKey');
  return { next: saved.read, reached: saved.write };
};

function savedValue<T>(command: string, run: string, field: string) {
  const Key = keys.maintenanceCheckpoint(command, run);
  return {
    async read(): Promise<T | undefined> {
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
      return Item?.[field] as T | undefined;
    },
    write: (value: T) =>
      db.send(
        new PutCommand({ TableName: tableName(), Item: { ...Key, entity: 'MaintenanceCheckpoint', [field]: value } }),
      ),
  };
}

/**
 * A Scan's pages from the run's checkpoint (from the start with `restart`), each page's
 * next key saved once `handle` finished it; stops before a page when `stop` says so.
 * Answers whether it reached the Scan's end.
 */
export async function resumableScan(
  command: string,
  { run = 'all', restart = false, stop }: RunOptions,
  input: Omit<ScanCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  handle: (items: Item[]) => Promise<void>,
): Promise<boolean> {
  const checkpoint = scanCheckpointOf(command, run);
  let start = restart ? undefined : await checkpoint.next();
  if (start === null) return true;
  do {
    if (stop?.()) return false;
    const page: { Items?: Item[]; LastEvaluatedKey?: Item } = await db.send(
      new ScanCommand({ ...input, Limit: PAGE_SIZE, ExclusiveStartKey: start ?? undefined }),
    );
    await handle(page.Items ?? []);
    start = page.LastEvaluatedKey ?? null;
    await checkpoint.reached(start);
  } while (start);
  return true;
}

/** The items of one list partition of the given entities (an entry, or a ticket stored before its entries), page by page to its end. */
export async function* indexItems(partition: Partition, ...entities: string[]): AsyncGenerator<Item> {
  const query: QueryCommandInput = {
    TableName: tableName(),
    ...withValues(keyCondition(partition), Object.fromEntries(entities.map((entity, i) => [`:entity${i}`, entity]))),
    FilterExpression: `#entity IN (${entities.map((_, i) => `:entity${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#entity': 'entity' },
    Limit: PAGE_SIZE,
  };
  let start: Item | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...query, ExclusiveStartKey: start }));
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * Puts each recounted item whole, and deletes the partition's items under `prefix` the recount
 * does not hold (blocks no live ticket holds now, the separate type blocks kept before a
 * type's list became a part of the event's and teams' blocks). Answers the items written or
 * deleted.
 */
export async function rewriteItems(
  partition: Partition,
  prefix: string,
  recounted: Map<string, Item>,
): Promise<number> {
  const stale: string[] = [];
  let start: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(partition, { beginsWith: prefix }),
        ProjectionExpression: 'SK',
        Limit: PAGE_SIZE,
        ExclusiveStartKey: start,
      }),
    );
    stale.push(...(page.Items ?? []).map((item) => String(item.SK)).filter((sk) => !recounted.has(sk)));
    start = page.LastEvaluatedKey;
  } while (start);
  const PK = partition.value;
  for (const [SK, item] of recounted)
    await db.send(new PutCommand({ TableName: tableName(), Item: { PK, SK, ...item } }));
  for (const SK of stale) await db.send(new DeleteCommand({ TableName: tableName(), Key: { PK, SK } }));
  return recounted.size + stale.length;
}
