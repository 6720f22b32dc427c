import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock.ts';
import { ConcurrentUpdate, RateLimited } from '../errors.ts';
import { recordBudget } from '../rate-budgets.ts';
import { db, tableName, writtenIf } from './client.ts';
import { keys } from './keys.ts';
import { type Decision, readDecideWrite } from './read-decide-write.ts';

export type Slot = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A sliding-window limit: at most `limit` attempts by `subject` in any `windowSeconds`.
 * One item per subject holds the times of the recent attempts; it is replaced by a
 * write conditional on the version read, so racing requests cannot both take the last
 * slot. (A fixed window counted from the first attempt would let 2 × limit through
 * around the window's end.) The item expires by TTL once the window has passed.
 * Losing every race (read-decide-write.ts's tries) counts as refused: the limit fails closed.
 */
export async function takeSlot(name: string, subject: string, limit: number, windowSeconds: number): Promise<Slot> {
  const slot = await countSlot(name, subject, limit, windowSeconds);
  if (!slot.allowed)
    recordBudget({ policy: name, quota: limit, windowSeconds, remaining: 0, resetSeconds: slot.retryAfterSeconds });
  return slot;
}

async function countSlot(name: string, subject: string, limit: number, windowSeconds: number): Promise<Slot> {
  const key = keys.rateWindow(name, subject);
  try {
    return await readDecideWrite({
      subject: `The rate window of ${subject}`,
      read: async () =>
        (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item,
      decide: (Item): Decision<Slot> => {
        const t = epochSeconds();
        const recent = ((Item?.attempts as number[] | undefined) ?? []).filter((at) => at > t - windowSeconds);
        if (recent.length >= limit)
          return { answer: { allowed: false, retryAfterSeconds: Math.max(1, recent[0]! + windowSeconds - t) } };
        const version = Number(Item?.version ?? 0);
        const put = new PutCommand({
          TableName: tableName(),
          Item: {
            ...key,
            entity: 'RateWindow',
            attempts: [...recent, t],
            version: version + 1,
            expiresAt: t + windowSeconds,
          },
          ConditionExpression: Item ? 'version = :version' : 'attribute_not_exists(PK)',
          ...(Item ? { ExpressionAttributeValues: { ':version': version } } : {}),
        });
        const write = async () => {
          if (!(await writtenIf(put))) return false;
          // What the client has left: the window's free slots, and when its oldest attempt leaves it.
          recordBudget({
            policy: name,
            quota: limit,
            windowSeconds,
            remaining: limit - recent.length - 1,
            resetSeconds: (recent[0] ?? t) + windowSeconds - t,
          });
          return true;
        };
        return { write, answer: { allowed: true } };
      },
    });
  } catch (error) {
    // Outraced on every try: the limit fails closed.
    if (error instanceof ConcurrentUpdate) return { allowed: false, retryAfterSeconds: 1 };
    throw error;
  }
}

/** One sliding window of `takeSlot`. */
export interface RateWindow {
  name: string;
  subject: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Takes a slot in each window in turn; the first full one refuses with 429 (`message`
 * names the limit; Retry-After from that window). Windows before it keep their slot: the
 * attempt was made.
 */
export async function requireSlots(
  windows: readonly RateWindow[],
  message: (window: RateWindow) => string,
): Promise<void> {
  for (const window of windows) {
    const slot = await takeSlot(window.name, window.subject, window.limit, window.windowSeconds);
    if (!slot.allowed) throw new RateLimited(message(window), slot.retryAfterSeconds);
  }
}
