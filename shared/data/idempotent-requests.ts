import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, now } from '../clock.ts';
import type { IdempotencyScope } from '../domain/idempotency.ts';
import { Conflict } from '../errors.ts';
import * as z from '../schema.ts';
import { db, tableName } from './client.ts';
import { parseItem } from './stored-items.ts';
import { keys } from './keys.ts';
import type { ExtraAction } from '../tickets/data/ticket-changes.ts';

/**
 * Requests made under an `Idempotency-Key` (README "Idempotent retries"): one item per
 * route, caller and key, claimed before the route acts and completed with its answer.
 * The item lives 24 h (TTL `expiresAt`); an expired one is claimable again at once,
 * without waiting for DynamoDB's sweep. A change that commits in a transaction of its own
 * (a ticket's check-in, transfer) also sets its first answer on the item inside that
 * transaction (`firstAnswerUpdate`): a retry after a function that died between that commit
 * and `completeRequest` finds it here, in the one store, instead of acting again.
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** The answer as the route gave it, replayed to a retry. */
const StoredAnswer = z.lazy(() =>
  z.object({
    status: z.number(),
    /** The JSON body as text (so it replays byte for byte), absent for no body. */
    body: z.optional(z.string()),
    headers: z.optional(z.record(z.string(), z.string())),
  }),
);
export type StoredAnswer = z.output<typeof StoredAnswer>;
const CompletedRequest = z.lazy(() => z.object({ fingerprint: z.string(), answer: StoredAnswer }));

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'completed'; fingerprint: string; answer: StoredAnswer }
  | { outcome: 'in-flight'; fingerprint: string; lockedUntilMs: number };

const keyOf = ({ route, caller, key }: IdempotencyScope) =>
  keys.idempotentRequest(route, keys.caller(caller.kind, caller.id), key);

/**
 * Claims the key for this request: one conditional Put that succeeds when the key is new,
 * expired, or held by a request whose lock ran out (its function died mid-way) before its
 * change committed. Otherwise one consistent GetItem says what holds it; a dead request whose
 * change did commit (`firstAnswer`) is taken over by one conditional Update that keeps that
 * answer, so the retry's change answers it (the Put would have erased it).
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
          'attribute_not_exists(PK) OR expiresAt < :now OR (#status = :inProgress AND lockedUntilMs < :nowMs AND attribute_not_exists(firstAnswer))',
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
    return { outcome: 'completed', ...parseItem(CompletedRequest, Item, 'idempotent request') };
  const held = {
    outcome: 'in-flight',
    fingerprint: String(Item.fingerprint),
    lockedUntilMs: Number(Item.lockedUntilMs),
  } as const;
  // Only the same request takes a committed change over (another one is refused 422 by the caller).
  if (held.lockedUntilMs >= nowMs || held.fingerprint !== fingerprint) return held;
  return (await takeOver(scope, held.lockedUntilMs, nowMs + lockMs)) ? { outcome: 'claimed' } : held;
}

/** Locks a dead request's item again for this one, keeping its first answer; false when another retry was first. */
async function takeOver(scope: IdempotencyScope, deadLock: number, lockedUntilMs: number): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(scope),
        UpdateExpression: 'SET lockedUntilMs = :lock',
        ConditionExpression: '#status = :inProgress AND lockedUntilMs = :dead',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':lock': lockedUntilMs, ':dead': deadLock, ':inProgress': 'IN_PROGRESS' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
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

/**
 * Gives the key back when the request failed, so a retry runs it again (errors are not stored).
 * A request whose change already committed (`firstAnswer`) failed after it: its record stays
 * with the answer and only its lock goes, so the retry takes it over at once and answers it.
 */
export async function releaseRequest(scope: IdempotencyScope): Promise<void> {
  const values = { ':inProgress': 'IN_PROGRESS' };
  try {
    await db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keyOf(scope),
        ConditionExpression: '#status = :inProgress AND attribute_not_exists(firstAnswer)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      }),
    );
    return;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(scope),
        UpdateExpression: 'SET lockedUntilMs = :unlocked',
        ConditionExpression: '#status = :inProgress AND attribute_exists(firstAnswer)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':unlocked': 0 },
      }),
    )
    .catch((error: unknown) => {
      // Someone else's claim (ours had expired), or completed meanwhile: it stays as it is.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}

/** Another request with the same key committed its change first (it took the key over once our lock ran out). */
export class FirstAnswerTaken extends Conflict {
  constructor() {
    super('This Idempotency-Key is in use by a concurrent request.', 'idempotency_key_reused');
  }
}

/**
 * Sets the change's first answer on the claimed request item, as an action of the change's own
 * transaction. Conditional on the item still in progress with no answer committed: a change
 * never answers a request twice, and never for a key nobody holds.
 */
export const firstAnswerUpdate = (scope: IdempotencyScope, subjectId: number, answer: unknown): ExtraAction => ({
  action: {
    Update: {
      TableName: tableName(),
      Key: keyOf(scope),
      UpdateExpression: 'SET firstAnswer = :answer, firstAnswerOf = :subject',
      ConditionExpression: '#status = :inProgress AND attribute_not_exists(firstAnswer)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':answer': answer, ':subject': subjectId, ':inProgress': 'IN_PROGRESS' },
    },
  },
  onConditionFailed: () => new FirstAnswerTaken(),
});

/** The first answer a change committed under the key for `subjectId`; 409 `idempotency_key_reused` when it was for another. */
export async function readFirstAnswer<T>(scope: IdempotencyScope, subjectId: number): Promise<T | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keyOf(scope),
      ConsistentRead: true,
      ProjectionExpression: 'firstAnswer, firstAnswerOf',
    }),
  );
  if (Item?.firstAnswer === undefined) return undefined;
  if (Item.firstAnswerOf !== subjectId)
    throw new Conflict('This Idempotency-Key was already used for another ticket.', 'idempotency_key_reused');
  return Item.firstAnswer as T;
}

/** Runs a change that sets its first answer: when a concurrent request committed first (FirstAnswerTaken), answers its answer. */
export async function answeringOnce<T>(
  scope: IdempotencyScope | undefined,
  subjectId: number,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof FirstAnswerTaken) || !scope) throw error;
    const first = await readFirstAnswer<T>(scope, subjectId);
    if (first !== undefined) return first;
    throw error;
  }
}
