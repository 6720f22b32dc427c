import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../clock.ts';
import { ConcurrentUpdate } from '../../errors.ts';
import * as z from '../../schema.ts';
import { batchGet, db, tableName, writtenIf } from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { type Decision, readDecideWrite } from '../../data/read-decide-write.ts';
import { giveBackBudget, recordBudget } from '../../rate-budgets.ts';

/** A limit on password attempts with a growing lock-out (README "Throttled logins"). */
export interface ThrottleRule {
  /** Part of the item's key: one counter per rule and subject. */
  name: string;
  /** Failed attempts in a window that lock the subject out. */
  failures: number;
  windowSeconds: number;
  /** The first lock-out; each further one within `MEMORY_SECONDS` of the last doubles it, up to `maxLockSeconds`. */
  lockSeconds: number;
  maxLockSeconds: number;
}

export interface Subject {
  rule: ThrottleRule;
  /** What is counted: an account and client network, or a client network alone. */
  value: string;
}

/** A subject quiet this long after its last lock-out starts again from the first lock-out's length. */
export const MEMORY_SECONDS = 24 * 60 * 60;
const ThrottleItem = z.lazy(() =>
  z.object({
    /** Attempts reserved in the window: failures, plus checks still under way. */
    attempts: z.number(),
    windowStart: z.number(),
    lockedUntil: z.number(),
    lockouts: z.number(),
  }),
);
type ThrottleItem = z.output<typeof ThrottleItem>;

/** A reserved attempt: the password may be checked once. */
export interface Reservation {
  subject: Subject;
  /** This attempt's place in the window (1 = the first): the one at the limit starts a lock-out if it fails. */
  place: number;
  item: ThrottleItem;
}

export type Reserved = { reserved: true; reservation: Reservation } | { reserved: false; retryAfterSeconds: number };

/**
 * Reserves one attempt against a subject BEFORE the password is checked: one conditional
 * UpdateItem that adds 1 only while the subject is not locked out and its window holds
 * fewer than `limit` attempts. Racing requests cannot all pass a check that precedes them
 * (a read then a count lets 40 parallel guesses all be verified); here at most
 * `limit` of them are. A window that has passed is started afresh (a conditional put).
 */
export async function reserveAttempt(subject: Subject, limit: number): Promise<Reserved> {
  const reserved = await reserve(subject, limit);
  // What the client has left: attempts before a lock-out in this window, and when the window (or the lock-out) ends.
  const { name, windowSeconds } = subject.rule;
  if (reserved.reserved) {
    const { item } = reserved.reservation;
    recordBudget({
      policy: name,
      quota: limit,
      windowSeconds,
      remaining: Math.max(0, limit - item.attempts),
      resetSeconds: Math.max(1, item.windowStart + windowSeconds - epochSeconds()),
    });
  } else {
    recordBudget({ policy: name, quota: limit, windowSeconds, remaining: 0, resetSeconds: reserved.retryAfterSeconds });
  }
  return reserved;
}

async function reserve(subject: Subject, limit: number): Promise<Reserved> {
  try {
    return await readDecideWrite({
      subject: `The login throttle of ${subject.rule.name}`,
      // The reservation's own update is the read: it adds the attempt while the window has room, else answers the item.
      read: () => addAttempt(subject, limit),
      decide: (added): Decision<Reserved> => {
        if ('reserved' in added) return { answer: added };
        const { old, t } = added;
        if (old.lockedUntil > t) return { answer: { reserved: false, retryAfterSeconds: old.lockedUntil - t } };
        if (old.windowStart > t - subject.rule.windowSeconds) {
          // The window is full of attempts whose checks are still under way (or of failures a
          // function did not live to count): try again when it ends, or sooner after a lock-out.
          const ends = old.windowStart + subject.rule.windowSeconds - t;
          return {
            answer: { reserved: false, retryAfterSeconds: Math.max(1, Math.min(subject.rule.lockSeconds, ends)) },
          };
        }
        return {
          write: () => startWindow(subject, old, t),
          answer: { reserved: true, reservation: { subject, place: 1, item: { ...old, attempts: 1, windowStart: t } } },
        };
      },
    });
  } catch (error) {
    // Lost every race: fail closed.
    if (error instanceof ConcurrentUpdate) return { reserved: false, retryAfterSeconds: 1 };
    throw error;
  }
}

/** Adds one attempt while the subject is not locked out and its window has room; else the item as it stands. */
async function addAttempt(
  subject: Subject,
  limit: number,
): Promise<Extract<Reserved, { reserved: true }> | { old: ThrottleItem; t: number }> {
  const t = epochSeconds();
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(subject.rule.name, subject.value),
        UpdateExpression:
          'SET entity = :entity, windowStart = if_not_exists(windowStart, :t), lockedUntil = if_not_exists(lockedUntil, :zero), lockouts = if_not_exists(lockouts, :zero), expiresAt = :expires ADD attempts :one',
        ConditionExpression:
          'attribute_not_exists(PK) OR (windowStart > :stale AND attempts < :limit AND lockedUntil <= :t)',
        ExpressionAttributeValues: {
          ':entity': 'LoginThrottle',
          ':t': t,
          ':zero': 0,
          ':one': 1,
          ':stale': t - subject.rule.windowSeconds,
          ':limit': limit,
          ':expires': t + MEMORY_SECONDS,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const item = parseItem(ThrottleItem, Attributes ?? {}, 'login throttle');
    return { reserved: true, reservation: { subject, place: item.attempts, item } };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    return { old: unmarshallThrottle(error.Item), t };
  }
}

/** The window passed: start a new one holding this attempt, unless a racing request did so first. */
async function startWindow(subject: Subject, old: ThrottleItem, t: number): Promise<boolean> {
  return writtenIf(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.rateWindow(subject.rule.name, subject.value),
        entity: 'LoginThrottle',
        ...old,
        attempts: 1,
        windowStart: t,
        expiresAt: t + MEMORY_SECONDS,
      },
      ConditionExpression: 'windowStart = :old',
      ExpressionAttributeValues: { ':old': old.windowStart },
    }),
  );
}

/**
 * The reserved attempt failed: it stays counted. The one that filled the window starts a
 * lock-out, twice as long as the previous one (within MEMORY_SECONDS), and a fresh window.
 * Answers the seconds of the lock-out it started (0: none).
 */
export async function failAttempt({ subject, place, item }: Reservation, limit: number): Promise<number> {
  if (place < limit) return 0;
  const { rule } = subject;
  const t = epochSeconds();
  const remembered = t < item.lockedUntil + MEMORY_SECONDS ? item.lockouts : 0;
  const lockSeconds = Math.min(rule.maxLockSeconds, rule.lockSeconds * 2 ** remembered);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(rule.name, subject.value),
        UpdateExpression:
          'SET lockedUntil = :until, lockouts = :lockouts, attempts = :zero, windowStart = :t, expiresAt = :expires',
        // Only the window this attempt was counted in: a racing failure may have locked already.
        ConditionExpression: 'windowStart = :window AND lockedUntil <= :t',
        ExpressionAttributeValues: {
          ':until': t + lockSeconds,
          ':lockouts': remembered + 1,
          ':zero': 0,
          ':t': t,
          ':window': item.windowStart,
          ':expires': t + lockSeconds + MEMORY_SECONDS,
        },
      }),
    );
    return lockSeconds;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 0;
    throw error;
  }
}

/** The reserved attempt needs no counting (a right password, or a check not made): give it back. */
export async function releaseAttempt({ subject, item }: Reservation): Promise<void> {
  giveBackBudget(subject.rule.name);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(subject.rule.name, subject.value),
        UpdateExpression: 'ADD attempts :minus',
        ConditionExpression: 'windowStart = :window AND attempts > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':window': item.windowStart, ':zero': 0 },
      }),
    );
  } catch (error) {
    // A new window or a lock-out began meanwhile: nothing of this attempt is left to give back.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** A right password forgets the subject's failures (its lock-out history too: the owner proved who they are). */
export async function forgetSubject({ rule, value }: Subject): Promise<void> {
  giveBackBudget(rule.name, Number.POSITIVE_INFINITY);
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.rateWindow(rule.name, value) }));
}

/**
 * Failures of an account from every network, counted per fixed window: one UpdateItem ADD per failure (no condition:
 * it only slows, it never refuses).
 */
export async function countAccountFailure(rule: ThrottleRule, account: string): Promise<void> {
  const t = epochSeconds();
  const window = Math.floor(t / rule.windowSeconds);
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateWindow(rule.name, `${account}#${window}`),
      UpdateExpression: 'SET entity = :entity, expiresAt = :expires ADD failures :one',
      ExpressionAttributeValues: {
        ':entity': 'LoginThrottle',
        ':expires': (window + 2) * rule.windowSeconds,
        ':one': 1,
      },
    }),
  );
}

/** An account's failures in one fixed window, as countAccountFailure adds them. */
const AccountFailuresItem = z.lazy(() => z.object({ failures: z.number() }));

/**
 * The account's failures in this window and the one before (one consistent BatchGetItem of both): any
 * `windowSeconds` of failures lie within those two, so failures spread across a window's turn still add up to the
 * rule's limit (the current window's alone would restart from 0 there); the price is that they count a while
 * longer, up to two windows.
 */
export async function accountFailures(rule: ThrottleRule, account: string): Promise<number> {
  const window = Math.floor(epochSeconds() / rule.windowSeconds);
  const windows = [window - 1, window].map((fixed) => keys.rateWindow(rule.name, `${account}#${fixed}`));
  const items = await batchGet(windows, { consistent: true });
  return items.reduce(
    (sum, item) => sum + (item ? parseItem(AccountFailuresItem, item, 'LoginThrottle').failures : 0),
    0,
  );
}

/** The item a failed condition returned (in DynamoDB's attribute-value form). */
function unmarshallThrottle(item: Record<string, { N?: string }>): ThrottleItem {
  const n = (name: string) => Number(item[name]?.N ?? 0);
  return {
    attempts: n('attempts'),
    windowStart: n('windowStart'),
    lockedUntil: n('lockedUntil'),
    lockouts: n('lockouts'),
  };
}
