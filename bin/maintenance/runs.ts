import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';

/**
 * What the resumable maintenance commands share: the ids they go through (a Scan of one kind
 * of record), a run's checkpoint (the last id it finished, kept in the table under
 * `MAINTENANCE#<command>` / `CHECKPOINT#<run>`), and a progress bar.
 */

const PAGE_SIZE = 500;

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

/** A progress bar on stderr: `[#####.....] 12/40 events`. */
export const progressBar =
  (unit: string) =>
  (done: number, total: number): void => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${unit}`);
  };
