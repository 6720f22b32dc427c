import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, now } from '../clock.ts';
import type { IdempotencyScope } from '../domain/idempotency.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Requests made under an `Idempotency-Key` (README "Idempotent retries"): one item per
 * route, caller and key, claimed before the route acts and completed with its answer.
 * The item lives 24 h (TTL `expiresAt`); an expired one is claimable again at once,
 * without waiting for DynamoDB's sweep.
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** The answer as the route gave it, replayed to a retry. */
export interface StoredAnswer {
  status: number;
  /** The JSON body as text (so it replays byte for byte), absent for no body. */
  body?: string;
  headers?: Record<string, string>;
}

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'completed'; fingerprint: string; answer: StoredAnswer }
  | { outcome: 'in-flight'; fingerprint: string; lockedUntilMs: number };

const keyOf = ({ route, caller, key }: IdempotencyScope) =>
  keys.idempotentRequest(route, keys.caller(caller.kind, caller.id), key);

/**
 * Claims the key for this request: one conditional Put that succeeds when the key is new,
 * expired, or held by a request whose lock ran out (its function died mid-way). Otherwise
 * one consistent GetItem says what holds it.
 */
export async function claimRequest(scope: IdempotencyScope, fingerprint: string, lockMs: number): Promise<Claim> {
  const nowMs = now().getTime();
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keyOf(scope),
          entity: 'IdempotentRequest',
          status: 'IN_PROGRESS',
          fingerprint,
          lockedUntilMs: nowMs + lockMs,
          expiresAt: epochSeconds() + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(PK) OR expiresAt < :now OR (#status = :inProgress AND lockedUntilMs < :nowMs)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': epochSeconds(), ':nowMs': nowMs, ':inProgress': 'IN_PROGRESS' },
      }),
    );
    return { outcome: 'claimed' };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keyOf(scope), ConsistentRead: true }));
  // Released between our Put and this read: the other request failed; the client may retry at once.
  if (!Item) return { outcome: 'in-flight', fingerprint, lockedUntilMs: nowMs };
  if (Item.status === 'COMPLETED')
    return { outcome: 'completed', fingerprint: String(Item.fingerprint), answer: Item.answer as StoredAnswer };
  return { outcome: 'in-flight', fingerprint: String(Item.fingerprint), lockedUntilMs: Number(Item.lockedUntilMs) };
}

/** Stores the answer under the claimed key; retries within 24 h get it again. */
export async function completeRequest(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(scope),
      UpdateExpression: 'SET #status = :completed, answer = :answer REMOVE lockedUntilMs',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':completed': 'COMPLETED', ':answer': answer },
    }),
  );
}

/** Gives the key back when the request failed, so a retry runs it again (errors are not stored). */
export async function releaseRequest(scope: IdempotencyScope): Promise<void> {
  await db
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keyOf(scope),
        ConditionExpression: '#status = :inProgress',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS' },
      }),
    )
    .catch((error: unknown) => {
      // Someone else's claim (ours had expired): theirs stays.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}
