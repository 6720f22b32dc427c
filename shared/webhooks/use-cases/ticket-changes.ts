import type { EventStreamChange } from '../data/event-change-stream.ts';
import type { TicketChange } from '../data/ticket-change-stream.ts';
import { readHistoryEntry } from '../../tickets/data/ticket-history.ts';
import { deliveriesRecorded, listWebhooks, type StoredDelivery } from '../data/webhooks.ts';
import { toTicket } from '../../tickets/domain/ticket-view.ts';
import { ticketChangeMessage } from '../domain/webhook-messages.ts';
import { covers, TICKET_EVENT_TYPE_NAMES, TICKET_EVENT_TYPES, type Webhook } from '../domain/webhooks.ts';
import { logger } from '../../logger.ts';
import { firstAttemptsMs } from '../services/webhook-settings.ts';
import { AttemptContext } from './attempt-context.ts';
import { changeDelivery, firstAttempt } from './deliveries.ts';
import { deliveryTime } from '../domain/delivery-times.ts';
import { deliveriesOfEventChange } from './event-changes.ts';
import { inTurns } from '../../in-turns.ts';

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
  // The type needs the history entry (one read, none for a creation): only read it for a change some subscription may want.
  if (!webhooks.some((webhook) => TICKET_EVENT_TYPE_NAMES.some((type) => covers(webhook, type, eventIds)))) return [];
  const entry = await readHistoryEntry(after);
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
    ...changeDelivery(webhook, id, entry.at),
    type,
    ticketId: after.id,
    eventIds,
    body,
  }));
}

/** A change the stream consumer reads: a ticket's, or an event's (event-changes.ts). */
export type StreamChange = TicketChange | EventStreamChange;

const deliveriesOf = (change: StreamChange, webhooks: readonly Webhook[]) =>
  change.kind === 'ticket' ? deliveriesOfChange(change, webhooks) : deliveriesOfEventChange(change, webhooks);

const subjectOf = (change: StreamChange) =>
  change.kind === 'ticket' ? { ticketId: change.after.id } : { eventId: (change.after ?? change.before)!.id };

/**
 * How many changes are read at once (a history read each), and how many of one subscription's first
 * attempts run at once. Each subscription's attempts run apart from every other's (no slot is shared), and
 * all of a batch's first attempts end within `firstAttemptsMs` (1 s deployed): a batch of 100 changes for
 * three subscriptions, receivers answering in 100 ms, takes about 0.2 s of reads and 1 s of attempts at most,
 * whatever a receiver does; what did not fit is recorded due, for the dispatcher.
 */
const CHANGES_AT_ONCE = 10;
const FIRST_ATTEMPTS_AT_ONCE = 10;

/**
 * The event source mapping's batch, in stream order. Answers the sequence number of the first
 * change whose deliveries could not all be recorded (Lambda retries from it), or undefined when
 * all were. No first attempt starts after `attemptUntil` (performance.now()): those deliveries are
 * recorded due, for the dispatcher.
 */
export async function deliverChanges(
  changes: readonly StreamChange[],
  attemptUntil = Number.POSITIVE_INFINITY,
): Promise<string | undefined> {
  if (!changes.length) return undefined;
  const webhooks = await listWebhooks();
  if (!webhooks.length) return undefined;
  const planned = await inTurns(changes, CHANGES_AT_ONCE, async (change) => {
    try {
      return await deliveriesOf(change, webhooks);
    } catch (error) {
      logger.error('change not read for its webhooks: the stream retries it', { ...subjectOf(change), error });
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
 * The batch's first attempts, each subscription's in a lane of its own: no lane waits for
 * another's receiver, and every attempt ends within the batch's window (`firstAttemptsMs` from the first one's
 * start), so the batch, and the shard's next batch after it, wait for a receiver that starts hanging or answering
 * slowly that long at most; an attempt still waiting then is recorded timed out, and one that would start with
 * less than a quarter of the window left is recorded due without an attempt (both for the dispatcher). In a lane,
 * the subscription's first message goes alone before the rest of its own: delivered, the rest go, at most
 * FIRST_ATTEMPTS_AT_ONCE at once; not delivered (a receiver that has just started failing or hanging, not yet
 * marked so when the batch read the subscriptions), the rest are recorded due without an attempt. Whether each
 * delivery was recorded.
 */
async function firstAttempts(deliveries: readonly StoredDelivery[], attemptUntil: number): Promise<boolean[]> {
  const context = new AttemptContext();
  const endBy = performance.now() + firstAttemptsMs;
  const startBy = Math.min(attemptUntil, endBy - firstAttemptsMs / 4);
  const recorded: boolean[] = new Array(deliveries.length).fill(false);
  const attempt = async (at: number, started: number) => {
    const delivery = deliveries[at]!;
    try {
      const outcome = await firstAttempt(delivery, { context, startBy: started, endBy });
      recorded[at] = true;
      return outcome;
    } catch (error) {
      logger.error('webhook delivery of a change not recorded: the stream retries the change', {
        webhookId: delivery.webhookId,
        deliveryId: delivery.id,
        error,
      });
      return undefined;
    }
  };
  const bySubscription = new Map<number, number[]>();
  for (const [at, { webhookId }] of deliveries.entries()) {
    const of = bySubscription.get(webhookId) ?? [];
    of.push(at);
    bySubscription.set(webhookId, of);
  }
  await Promise.all(
    [...bySubscription.values()].map(async ([first, ...rest]) => {
      const probe = await attempt(first!, startBy);
      // Attempted and not delivered: the others wait for the dispatcher (recorded as not started, due now).
      const failing = probe?.status === 'pending' && probe.attempts > 0;
      await inTurns(rest, FIRST_ATTEMPTS_AT_ONCE, (at) => attempt(at, failing ? Number.NEGATIVE_INFINITY : startBy));
    }),
  );
  return recorded;
}
