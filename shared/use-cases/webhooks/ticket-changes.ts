import type { TicketChange } from '../../data/ticket-change-stream.ts';
import { readHistoryEntry } from '../../data/ticket-history.ts';
import { deliveriesRecorded, listWebhooks, type StoredDelivery } from '../../data/webhooks.ts';
import { toTicket } from '../../domain/ticket-view.ts';
import { ticketChangeMessage } from '../../domain/webhook-messages.ts';
import { covers, TICKET_EVENT_TYPE_NAMES, TICKET_EVENT_TYPES, type Webhook } from '../../domain/webhooks.ts';
import { logger } from '../../logger.ts';
import { AttemptContext } from './attempt-context.ts';
import { deliveryTime, firstAttempt, newDelivery } from './deliveries.ts';
import { inTurns } from './in-turns.ts';

/**
 * The stream's side of the webhooks: each ticket change becomes one delivery per subscription
 * that wants it, attempted at once and recorded with the attempt's outcome (deliveries.ts
 * `firstAttempt`). A delivery's id comes from the change (its commit time, ticket and version),
 * so a change read again from the stream (Lambda retrying a batch) finds its deliveries recorded
 * and sends nothing twice; a change whose deliveries could not all be recorded is reported, and
 * Lambda reads it again: committed changes are delivered or end in a visible state.
 */
export async function deliveriesOfChange(
  change: TicketChange,
  webhooks: readonly Webhook[],
): Promise<StoredDelivery[]> {
  const { before, after } = change;
  const eventIds = [after.eventId, ...(after.accessEvents ?? [])];
  // The type needs the history entry (one read): only read it for a change some subscription may want.
  if (!webhooks.some((webhook) => TICKET_EVENT_TYPE_NAMES.some((type) => covers(webhook, type, eventIds)))) return [];
  const entry = await readHistoryEntry(after.id, after.version);
  if (!entry) {
    // Every change of a ticket writes its history entry in the same transaction; a record without one is not a change.
    logger.warn('ticket record changed without a history entry: no webhook message', { ticketId: after.id });
    return [];
  }
  const type = TICKET_EVENT_TYPES[entry.action];
  const targets = webhooks.filter((webhook) => covers(webhook, type, eventIds));
  if (!targets.length) return [];
  const body = JSON.stringify(ticketChangeMessage(entry, before ? toTicket(before) : null, toTicket(after)));
  const id = `${deliveryTime(change.committedAt)}-${after.id}-${after.version}`;
  return targets.map((webhook) => ({
    ...newDelivery(webhook, id, entry.at),
    // A disabled subscription's message is recorded, not attempted: `…/retry` sends it once it is on again.
    ...(webhook.enabled
      ? {}
      : { status: 'skipped' as const, nextAttemptAt: null, lastError: 'the webhook was disabled' }),
    type,
    ticketId: after.id,
    eventIds,
    body,
  }));
}

/**
 * How many changes are read at once (a history read each), and how many first attempts run at
 * once (each waits for its receiver, 10 s at most, then one write). A batch of 100 changes for
 * three subscriptions, receivers answering in 100 ms: about 0.2 s of reads, 1.5 s of attempts;
 * the mapping runs four batches per shard at once, so a shard keeps up with ~200 changes a second.
 */
const CHANGES_AT_ONCE = 10;
const FIRST_ATTEMPTS_AT_ONCE = 20;

/**
 * The event source mapping's batch, in stream order. Answers the sequence number of the first
 * change whose deliveries could not all be recorded (Lambda retries from it), or undefined when
 * all were. No first attempt starts after `attemptUntil` (performance.now()): those deliveries are
 * recorded due, for the dispatcher.
 */
export async function deliverTicketChanges(
  changes: readonly TicketChange[],
  attemptUntil = Number.POSITIVE_INFINITY,
): Promise<string | undefined> {
  if (!changes.length) return undefined;
  const webhooks = await listWebhooks();
  if (!webhooks.length) return undefined;
  const planned = await inTurns(changes, CHANGES_AT_ONCE, async (change) => {
    try {
      return await deliveriesOfChange(change, webhooks);
    } catch (error) {
      logger.error('ticket change not read for its webhooks: the stream retries it', {
        ticketId: change.after.id,
        error,
      });
      return undefined;
    }
  });
  // Nothing after the first change that could not be read: Lambda hands it and those after it over again.
  const unread = planned.indexOf(undefined);
  const readable = (unread === -1 ? planned : planned.slice(0, unread)) as StoredDelivery[][];
  const deliveries = readable.flatMap((ofChange, change) => ofChange.map((delivery) => ({ delivery, change })));
  let recorded: boolean[];
  try {
    recorded = await deliveriesRecorded(deliveries.map(({ delivery }) => delivery));
  } catch (error) {
    logger.error('webhook deliveries not looked up: the stream retries the batch', { error });
    return changes[0]!.sequenceNumber;
  }
  const fresh = deliveries.filter((_, at) => !recorded[at]);
  const done = await firstAttempts(
    fresh.map(({ delivery }) => delivery),
    attemptUntil,
  );
  const failed = fresh.filter((_, at) => !done[at]).map(({ change }) => change);
  const first = Math.min(unread === -1 ? changes.length : unread, ...failed);
  return first < changes.length ? changes[first]!.sequenceNumber : undefined;
}

/**
 * The batch's first attempts, FIRST_ATTEMPTS_AT_ONCE at a time, each subscription's first one alone
 * before the rest of its own: delivered, the rest go at once; failed (a receiver that has just started
 * failing or hanging, not yet marked so when the batch read the subscriptions), the rest are recorded
 * due for the dispatcher without an attempt. So a receiver that starts hanging costs the batch one
 * attempt's time and one slot, not an attempt per message holding every slot while the other
 * subscriptions' messages wait. Whether each delivery was recorded.
 */
async function firstAttempts(deliveries: readonly StoredDelivery[], attemptUntil: number): Promise<boolean[]> {
  const context = new AttemptContext();
  const slot = slots(FIRST_ATTEMPTS_AT_ONCE);
  const recorded: boolean[] = new Array(deliveries.length).fill(false);
  const attempt = (at: number, startBy: number) =>
    slot(async () => {
      const delivery = deliveries[at]!;
      try {
        const outcome = await firstAttempt(delivery, { context, startBy });
        recorded[at] = true;
        return outcome;
      } catch (error) {
        logger.error('webhook delivery of a ticket change not recorded: the stream retries the change', {
          webhookId: delivery.webhookId,
          deliveryId: delivery.id,
          error,
        });
        return undefined;
      }
    });
  const bySubscription = new Map<number, number[]>();
  for (const [at, { webhookId }] of deliveries.entries()) {
    const of = bySubscription.get(webhookId) ?? [];
    of.push(at);
    bySubscription.set(webhookId, of);
  }
  await Promise.all(
    [...bySubscription.values()].map(async ([first, ...rest]) => {
      const probe = await attempt(first!, attemptUntil);
      // Attempted and not delivered: the others wait for the dispatcher (recorded as not started, due now).
      const failing = probe?.status === 'pending' && probe.attempts > 0;
      await Promise.all(rest.map((at) => attempt(at, failing ? Number.NEGATIVE_INFINITY : attemptUntil)));
    }),
  );
  return recorded;
}

/** At most `size` of the works given at once, the others started in the order they asked as those end. */
function slots(size: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    // A slot is handed straight from the work that ends to the next one waiting, so none is taken twice.
    if (busy < size) busy++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy--;
    }
  };
}
