import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock.ts';
import type { IdempotencyScope } from '../domain/idempotency.ts';
import type { Ticket } from '../domain/ticket.ts';
import { Conflict } from '../errors.ts';
import { db, tableName } from './client.ts';
import { IDEMPOTENCY_TTL_SECONDS } from './idempotent-requests.ts';
import { keys } from './keys.ts';
import type { ExtraAction } from './ticket-changes.ts';

/**
 * The first answer of an idempotent ticket change (check-in, transfer), written inside the
 * change's own transaction, beside the route's request record (shared/http/idempotency.ts)
 * in the same partition. The request record replays answers it stored; this one covers a
 * function that died after its commit and before storing the answer: the retry (once the
 * dead request's lock runs out) finds the answer here instead of acting again.
 */
/** A concurrent request with the same key committed between our read and our write. */
export class AnswerKeyTaken extends Conflict {
  constructor() {
    super('This Idempotency-Key is in use by a concurrent request.', 'idempotency_key_reused');
  }
}

const keyOf = ({ route, caller, key }: IdempotencyScope) =>
  keys.idempotentAnswer(route, keys.caller(caller.kind, caller.id), key);

/** The answer stored under the key for this ticket; 409 `idempotency_key_reused` when the key was used for another ticket. */
export async function readTicketAnswer(scope: IdempotencyScope, ticketId: number): Promise<Ticket | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keyOf(scope), ConsistentRead: true }));
  if (!Item) return undefined;
  if (Item.ticketId !== ticketId)
    throw new Conflict('This Idempotency-Key was already used for another ticket.', 'idempotency_key_reused');
  return Item.answer as Ticket;
}

/** Stores the answer in the change's transaction; the key already taken raises AnswerKeyTaken. */
export const ticketAnswerPut = (scope: IdempotencyScope, ticketId: number, answer: Ticket): ExtraAction => ({
  action: {
    Put: {
      TableName: tableName(),
      Item: {
        ...keyOf(scope),
        entity: 'IdempotentAnswer',
        ticketId,
        answer,
        expiresAt: epochSeconds() + IDEMPOTENCY_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
  onConditionFailed: () => new AnswerKeyTaken(),
});

/**
 * Runs an idempotent ticket change: when the key's answer was stored meanwhile by a
 * concurrent request (AnswerKeyTaken), answers that answer instead.
 */
export async function answeringOnce(
  scope: IdempotencyScope | undefined,
  ticketId: number,
  change: () => Promise<Ticket>,
): Promise<Ticket> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof AnswerKeyTaken) || !scope) throw error;
    const first = await readTicketAnswer(scope, ticketId);
    if (first) return first;
    throw error;
  }
}
