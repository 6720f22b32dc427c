import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyCondition, type Partition, withValues } from '#shared/data/key-conditions';

/**
 * What the resumable maintenance commands share: the ids they go through (a Scan of one kind
 * of record), a run's checkpoint (the last id it finished, kept in the table under
 * `MAINTENANCE#<command>` / `CHECKPOINT#<run>`), a recount's reads of an index to its end and
 * its rewrite of a partition's kept items, and a progress bar.
 */

const PAGE_SIZE = 500;
type Item = Record<string, unknown>;

/** How a resumable command is run. */
export interface RunOptions {
  /** The checkpoint's name: a run resumes after the last id its name finished. */
  run?: string;
  restart?: boolean;
  progress?: (done: number, total: number) => void;
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
  const Key = keys.maintenanceCheckpoint(command, run);
  return {
    async last(): Promise<number | undefined> {
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
      return Item?.[field] === undefined ? undefined : Number(Item[field]);
    },
    done: (id: number) =>
      db.send(
        new PutCommand({ TableName: tableName(), Item: { ...Key, entity: 'MaintenanceCheckpoint', [field]: id } }),
      ),
  };
};

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

/** A progress bar on stderr: `[#####.....] 12/40 events`. */
export const progressBar =
  (unit: string) =>
  (done: number, total: number): void => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${unit}`);
  };
