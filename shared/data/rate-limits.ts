import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock.ts';
import { keptPerContainer } from '../container-state.ts';
import { ConcurrentUpdate, RateLimited } from '../errors.ts';
import { recordBudget } from '../rate-budgets.ts';
import * as z from '../schema.ts';
import { db, tableName, writtenIf } from './client.ts';
import { keys } from './keys.ts';
import { type Decision, readDecideWrite } from './read-decide-write.ts';
import { parseItem } from './stored-items.ts';

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

/**
 * The window items this container wrote last, by subject: its next attempt in a window with room writes on the
 * version it wrote, without reading the item first (a call fewer on every rate-limited request a container sees
 * again, as an on-sale's holds from one network). Still exact: the write is conditional on that version, so an item
 * another container (or TTL) changed since fails it and is read afresh; a copy that finds the window full is never
 * trusted to refuse, the item is read.
 */
const lastWritten = new Map<string, RateWindowItem>();
const MAX_REMEMBERED = 1_000;
keptPerContainer(() => lastWritten.clear());

/** A subject's window as stored: the times (epoch seconds) of its recent attempts, and the version a write is conditional on. */
const RateWindowItem = z.lazy(() => z.object({ attempts: z.array(z.number()), version: z.number() }));
type RateWindowItem = z.output<typeof RateWindowItem>;

const recentAttempts = (window: RateWindowItem | undefined, t: number, windowSeconds: number) =>
  (window?.attempts ?? []).filter((at) => at > t - windowSeconds);

function remember(id: string, Item: RateWindowItem | undefined): void {
  lastWritten.delete(id);
  if (!Item) return;
  if (lastWritten.size >= MAX_REMEMBERED) lastWritten.delete(lastWritten.keys().next().value!);
  lastWritten.set(id, Item);
}

async function countSlot(name: string, subject: string, limit: number, windowSeconds: number): Promise<Slot> {
  const key = keys.rateWindow(name, subject);
  const id = `${key.PK}\u0000${key.SK}`;
  const read = async (attempt: number) => {
    const copy = attempt === 0 ? lastWritten.get(id) : undefined;
    if (copy && recentAttempts(copy, epochSeconds(), windowSeconds).length < limit) return copy;
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    return Item ? parseItem(RateWindowItem, Item, 'rate window') : undefined;
  };
  try {
    return await readDecideWrite({
      subject: `The rate window of ${subject}`,
      read,
      decide: (Item): Decision<Slot> => {
        const t = epochSeconds();
        const recent = recentAttempts(Item, t, windowSeconds);
        if (recent.length >= limit)
          return { answer: { allowed: false, retryAfterSeconds: Math.max(1, recent[0]! + windowSeconds - t) } };
        const version = Item?.version ?? 0;
        const written = {
          ...key,
          entity: 'RateWindow',
          attempts: [...recent, t],
          version: version + 1,
          expiresAt: t + windowSeconds,
        };
        const put = new PutCommand({
          TableName: tableName(),
          Item: written,
          ConditionExpression: Item ? 'version = :version' : 'attribute_not_exists(PK)',
          ...(Item ? { ExpressionAttributeValues: { ':version': version } } : {}),
        });
        const write = async () => {
          const won = await writtenIf(put);
          remember(id, won ? written : undefined);
          if (!won) return false;
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
