import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../schema.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';

/**
 * The data migrations' ledger: one item per migration (`MIGRATIONS` / `MIGRATION#<id>`) saying
 * whether it is done, when it started and finished, how far it got, and which runner holds it
 * now. A runner holds a migration by a lease (a conditional write: no lease, an expired one, or
 * its own), so two runners (a deploy's and one continuing itself) never run one at once.
 */
const MIGRATION_STATUSES = ['running', 'done'] as const;
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number];

const LedgerEntry = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    status: z.enum(MIGRATION_STATUSES),
    startedAt: z.string(),
    finishedAt: z.optional(z.string()),
    /** Invocations that held it. */
    runs: z.number(),
    /** Its backfill's last progress (`12/40`), and its outcome once done. */
    progress: z.optional(z.string()),
    outcome: z.optional(z.record(z.string(), z.unknown())),
    /** The runner holding it, and until when (ISO). */
    owner: z.optional(z.string()),
    leaseUntil: z.optional(z.string()),
    lastError: z.optional(z.string()),
  }),
);
export type LedgerEntry = z.output<typeof LedgerEntry>;

/** More migrations than a release will ever have: the ledger is read whole in one bounded Query. */
const MAX_MIGRATIONS = 1000;

export async function readLedger(): Promise<Map<number, LedgerEntry>> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.migrationLedger),
      Limit: MAX_MIGRATIONS,
      ConsistentRead: true,
    }),
  );
  return new Map(
    Items.map((item) => {
      const entry = parseItem(LedgerEntry, item, 'migration ledger entry');
      return [entry.id, entry];
    }),
  );
}

/** Conditional writes that fail because another runner holds the migration answer false. */
async function ifHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Takes the lease on a migration not done, unless another runner's lease is still running; false when held. */
export const holdMigration = (
  migration: { id: number; name: string },
  owner: string,
  { now, until }: { now: string; until: string },
): Promise<boolean> =>
  ifHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.migration(migration.id),
        UpdateExpression:
          'SET entity = :entity, #id = :id, #name = :name, #status = :running, startedAt = if_not_exists(startedAt, :now), #owner = :owner, leaseUntil = :until ADD runs :one',
        ConditionExpression:
          'attribute_not_exists(PK) OR (#status <> :done AND (attribute_not_exists(#owner) OR leaseUntil < :now OR #owner = :owner))',
        ExpressionAttributeNames: { '#id': 'id', '#name': 'name', '#status': 'status', '#owner': 'owner' },
        ExpressionAttributeValues: {
          ':entity': 'MigrationLedgerEntry',
          ':id': migration.id,
          ':name': migration.name,
          ':running': 'running',
          ':done': 'done',
          ':now': now,
          ':owner': owner,
          ':until': until,
          ':one': 1,
        },
      }),
    ),
  );

/** Records how far the holder got (its lease stays). */
export const recordProgress = (id: number, owner: string, progress: string): Promise<boolean> =>
  ifHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.migration(id),
        UpdateExpression: 'SET progress = :progress',
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':progress': progress, ':owner': owner },
      }),
    ),
  );

/** Gives the lease back: `done` with the outcome, or not done (stopped for time, or failed with `error`). */
export const releaseMigration = (
  id: number,
  owner: string,
  end: { done: true; at: string; outcome: Record<string, unknown> } | { done: false; error?: string },
): Promise<boolean> =>
  ifHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.migration(id),
        UpdateExpression: end.done
          ? 'SET #status = :done, finishedAt = :at, outcome = :outcome REMOVE #owner, leaseUntil, lastError'
          : `${end.error ? 'SET lastError = :error ' : ''}REMOVE #owner, leaseUntil`,
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner', ...(end.done ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: {
          ':owner': owner,
          ...(end.done ? { ':done': 'done', ':at': end.at, ':outcome': end.outcome } : {}),
          ...(!end.done && end.error ? { ':error': end.error } : {}),
        },
      }),
    ),
  );

/** Forgets a migration (to run it again from its start), unless a runner holds it now. */
export const forgetMigration = (id: number, now: string): Promise<boolean> =>
  ifHeld(
    db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.migration(id),
        ConditionExpression: 'attribute_not_exists(#owner) OR leaseUntil < :now',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );

/**
 * Where a migration goes on after a stop (`RunOptions.run` names the run): the last thing it
 * finished (an id, a Query's next key), undefined before its first unit of work.
 */
export function migrationCheckpoint<T>(id: number, run: string) {
  const Key = keys.maintenanceCheckpoint(`migration-${id}`, run);
  return {
    async read(): Promise<T | undefined> {
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
      return Item?.value as T | undefined;
    },
    write: (value: T) =>
      db.send(new PutCommand({ TableName: tableName(), Item: { ...Key, entity: 'MaintenanceCheckpoint', value } })),
  };
}
