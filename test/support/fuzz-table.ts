import { DeleteTableCommand, DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { db } from '#shared/data/client';
import { createTable } from '../../bin/local/table.ts';

/**
 * The fuzz files' own tables. Other test files write to the shared test table at the
 * same time, so a before/after comparison there would see their writes: each fuzz file
 * points TABLE_NAME at a table of its own before anything reads it (shared/data/client.ts
 * reads it when first loaded; vitest loads modules afresh per test file), seeds it, and
 * compares its full contents with a Scan (a small test table, never a request path).
 */
export type Snapshot = Map<string, string>;

export interface TableChange {
  key: string;
  change: 'added' | 'removed' | 'changed';
}

// Not the `db` client of shared/data: snapshots must not show up in the reads tests count.
const client = () => new DynamoDBClient({});

/**
 * Without a stream unless asked: these tables are made mid-run, and DynamoDB Local slows every
 * write to a stream-enabled table by the stream records written before it was created (see
 * createTable): with streams, migrations.test.ts and ticket-lists-across-events.test.ts timed out
 * seeding their tables in a full run.
 */
export async function createOwnTable(name: string, { stream = false }: { stream?: boolean } = {}): Promise<void> {
  const dynamo = client();
  await createTable(name, dynamo, { stream });
  dynamo.destroy();
}

export async function dropOwnTable(name: string): Promise<void> {
  const dynamo = client();
  await dynamo.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
  dynamo.destroy();
}

/** A value with its object keys sorted, so equal items stringify equally whatever order the Scan returns attributes in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export class TableSnapshots {
  private readonly dynamo = client();
  constructor(readonly tableName: string) {}

  /** Every item of the table, by `PK|SK`. */
  async take(): Promise<Snapshot> {
    const items: Snapshot = new Map();
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await this.dynamo.send(
        new ScanCommand({ TableName: this.tableName, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      for (const item of page.Items ?? []) items.set(`${item.PK?.S}|${item.SK?.S}`, JSON.stringify(canonical(item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  close(): void {
    this.dynamo.destroy();
  }
}

export function tableChanges(before: Snapshot, after: Snapshot): TableChange[] {
  const changes: TableChange[] = [];
  for (const [key, value] of after) {
    const previous = before.get(key);
    if (previous === undefined) changes.push({ key, change: 'added' });
    else if (previous !== value) changes.push({ key, change: 'changed' });
  }
  for (const key of before.keys()) if (!after.has(key)) changes.push({ key, change: 'removed' });
  return changes;
}

const WRITES = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);
let writesDone = 0;
let logging = false;

/**
 * Write commands the shared client completed (a refused conditional write throws, so it
 * is not counted). Every handler in the file's module registry writes through this one
 * client, so a request that completed none cannot have changed the table.
 */
export function writesSoFar(): number {
  if (!logging) {
    logging = true;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (WRITES.has(String((context as { commandName?: string }).commandName))) writesDone++;
        return result;
      },
      { step: 'initialize', name: 'fuzzWriteLog' },
    );
  }
  return writesDone;
}
