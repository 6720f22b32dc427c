import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/** A failure limit with a growing lock-out (README "Throttled logins"). */
export interface ThrottleRule {
  /** Part of the item's key: one counter per rule and subject. */
  name: string;
  /** Failures in any `windowSeconds` that lock the subject out. */
  failures: number;
  windowSeconds: number;
  /** The first lock-out; each further one within `MEMORY_SECONDS` of the last doubles it, up to `maxLockSeconds`. */
  lockSeconds: number;
  maxLockSeconds: number;
}

export interface Subject {
  rule: ThrottleRule;
  /** The account (lower-cased login or address) or the client address. */
  value: string;
}

/** A subject quiet this long after its last lock-out starts again from the first lock-out's length. */
export const MEMORY_SECONDS = 24 * 60 * 60;
const MAX_RACES = 5;

interface ThrottleItem {
  failures: number[];
  lockouts: number;
  lockedUntil: number;
  version: number;
}

async function read(subject: Subject): Promise<ThrottleItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.rateWindow(subject.rule.name, subject.value), ConsistentRead: true }));
  return Item as ThrottleItem | undefined;
}

/** Seconds until every subject may try again (0 when none is locked out), and which subjects have a counter at all. */
export async function lockedForSeconds(subjects: Subject[]): Promise<{ seconds: number; counted: boolean[] }> {
  const t = epochSeconds();
  const items = await Promise.all(subjects.map(read));
  return { seconds: Math.max(0, ...items.map((item) => (item ? item.lockedUntil - t : 0))), counted: items.map(Boolean) };
}

/**
 * Counts one failure against a subject; the failure that reaches the rule's limit starts a
 * lock-out, twice as long as the previous one (within MEMORY_SECONDS). The item is replaced
 * by a write conditional on the version read (racing failures are all counted) and expires
 * by TTL once nothing in it matters. Answers the seconds of a lock-out this failure started (0: none).
 */
export async function countFailure({ rule, value }: Subject): Promise<number> {
  const key = keys.rateWindow(rule.name, value);
  for (let race = 0; race < MAX_RACES; race++) {
    const item = await read({ rule, value });
    const t = epochSeconds();
    const failures = [...(item?.failures ?? []).filter((at) => at > t - rule.windowSeconds), t];
    const remembered = item && t < item.lockedUntil + MEMORY_SECONDS ? item.lockouts : 0;
    const locks = failures.length >= rule.failures;
    const lockSeconds = locks ? Math.min(rule.maxLockSeconds, rule.lockSeconds * 2 ** remembered) : 0;
    const next: ThrottleItem = {
      failures: locks ? [] : failures,
      lockouts: locks ? remembered + 1 : remembered,
      lockedUntil: locks ? t + lockSeconds : (item?.lockedUntil ?? 0),
      version: (item?.version ?? 0) + 1,
    };
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, entity: 'LoginThrottle', ...next, expiresAt: Math.max(t + rule.windowSeconds, next.lockedUntil + MEMORY_SECONDS) },
          ConditionExpression: item ? 'version = :version' : 'attribute_not_exists(PK)',
          ...(item ? { ExpressionAttributeValues: { ':version': item.version } } : {}),
        }),
      );
      return lockSeconds;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  // Lost every race: the others' failures were counted, and this one is an attack's anyway.
  return 0;
}

/** A right password clears the account's failures (its lock-out history too: the owner proved who they are). */
export async function clearFailures({ rule, value }: Subject): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.rateWindow(rule.name, value) }));
}
