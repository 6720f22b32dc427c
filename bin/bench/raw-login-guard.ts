import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '#shared/clock';
import { db } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { MEMORY_SECONDS, type ThrottleRule } from '#shared/data/login-throttle';
import { ACCOUNT_RULE, CLIENT_RULE, PAIR_RULE } from '#shared/use-cases/auth/login-guard';
import { TABLE_NAME as TableName } from './settings.ts';

/** login-throttle.reserveAttempt, in a window that is open: one conditional UpdateItem. */
async function reserve(rule: ThrottleRule, value: string, limit: number): Promise<number> {
  const t = epochSeconds();
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName,
      Key: keys.rateWindow(rule.name, value),
      UpdateExpression:
        'SET entity = :entity, windowStart = if_not_exists(windowStart, :t), lockedUntil = if_not_exists(lockedUntil, :zero), lockouts = if_not_exists(lockouts, :zero), expiresAt = :expires ADD attempts :one',
      ConditionExpression:
        'attribute_not_exists(PK) OR (windowStart > :stale AND attempts < :limit AND lockedUntil <= :t)',
      ExpressionAttributeValues: {
        ':entity': 'LoginThrottle',
        ':t': t,
        ':zero': 0,
        ':one': 1,
        ':stale': t - rule.windowSeconds,
        ':limit': limit,
        ':expires': t + MEMORY_SECONDS,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Number(Attributes?.windowStart);
}

/**
 * login-guard.guardLogin around a right password, raw: the account's failures read, an
 * attempt reserved on the account from this network and then on the network, the
 * password `check`, then the pair forgotten and the network's attempt given back. `subject`
 * keeps the raw side's windows apart from the handler's.
 */
export async function rawGuardedLogin(subject: string, check: () => Promise<unknown>): Promise<void> {
  const window = Math.floor(epochSeconds() / ACCOUNT_RULE.windowSeconds);
  await db.send(
    new GetCommand({
      TableName,
      Key: keys.rateWindow(ACCOUNT_RULE.name, `${subject}#${window}`),
      ConsistentRead: true,
    }),
  );
  const pair = `${subject}#raw-network`;
  await reserve(PAIR_RULE, pair, PAIR_RULE.failures);
  const networkWindow = await reserve(CLIENT_RULE, `${subject}-network`, CLIENT_RULE.failures);
  await check();
  await Promise.all([
    db.send(new DeleteCommand({ TableName, Key: keys.rateWindow(PAIR_RULE.name, pair) })),
    db.send(
      new UpdateCommand({
        TableName,
        Key: keys.rateWindow(CLIENT_RULE.name, `${subject}-network`),
        UpdateExpression: 'ADD attempts :minus',
        ConditionExpression: 'windowStart = :window AND attempts > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':window': networkWindow, ':zero': 0 },
      }),
    ),
  ]);
}
