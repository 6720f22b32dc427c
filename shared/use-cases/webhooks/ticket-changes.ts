import type { TicketChange } from '../../data/ticket-change-stream.ts';
import { readHistoryEntry } from '../../data/ticket-history.ts';
import { listWebhooks, putDelivery, type StoredDelivery } from '../../data/webhooks.ts';
import { toTicket } from '../../domain/ticket-view.ts';
import { ticketChangeMessage } from '../../domain/webhook-messages.ts';
import { TICKET_EVENT_TYPE_NAMES, TICKET_EVENT_TYPES, type Webhook, wants } from '../../domain/webhooks.ts';
import { logger } from '../../logger.ts';
import { AttemptContext, attemptDelivery, deliveryTime, newDelivery } from './deliveries.ts';

/**
 * The stream's side of the webhooks: each ticket change becomes one delivery per subscription
 * that wants it, recorded before anything is sent (so a committed change is delivered or ends
 * in a visible state, never dropped), then attempted at once. A delivery's id comes from the
 * change (its commit time, ticket and version), so a stream record read twice records nothing
 * twice. Which subscriptions and whose permissions: checked again at every attempt.
 */
export async function recordTicketChange(
  change: TicketChange,
  webhooks: readonly Webhook[],
): Promise<StoredDelivery[]> {
  const { before, after } = change;
  const eventIds = [after.eventId, ...(after.accessEvents ?? [])];
  // The type needs the history entry (one read): only read it for a change some subscription may want.
  if (!webhooks.some((webhook) => TICKET_EVENT_TYPE_NAMES.some((type) => wants(webhook, type, eventIds)))) return [];
  const entry = await readHistoryEntry(after.id, after.version);
  if (!entry) {
    // Every change of a ticket writes its history entry in the same transaction; a record without one is not a change.
    logger.warn('ticket record changed without a history entry: no webhook message', { ticketId: after.id });
    return [];
  }
  const type = TICKET_EVENT_TYPES[entry.action];
  const targets = webhooks.filter((webhook) => wants(webhook, type, eventIds));
  if (!targets.length) return [];
  const body = JSON.stringify(ticketChangeMessage(entry, before ? toTicket(before) : null, toTicket(after)));
  const id = `${deliveryTime(change.committedAt)}-${after.id}-${after.version}`;
  const recorded: StoredDelivery[] = [];
  for (const webhook of targets) {
    const delivery: StoredDelivery = {
      ...newDelivery(webhook.id, id, entry.at),
      type,
      ticketId: after.id,
      eventIds,
      body,
    };
    if (await putDelivery(delivery)) recorded.push(delivery);
  }
  return recorded;
}

/**
 * How many changes are recorded at once (a history read and a conditional put per subscription
 * each: 100 changes for three subscriptions take about 1.5 s one by one, and the mapping runs four
 * batches per shard), and how many attempts run at once (each waits for its receiver, 10 s at most).
 * Locally the consumer shares two cores with the API and DynamoDB Local, and more at once did not
 * deliver sooner there (README "Performance"; bin/bench/results.md "Gate rush with webhooks").
 */
const CHANGES_AT_ONCE = 1;
const ATTEMPTS_AT_ONCE = 10;

/**
 * The event source mapping's batch, in stream order. Answers the sequence number of the first
 * change that could not be recorded (Lambda retries from it), or undefined when all were.
 * First attempts follow the recording, and their failures wait for the dispatcher.
 */
export async function deliverTicketChanges(
  changes: readonly TicketChange[],
  /** Wall time (performance.now()) after which no first attempt starts: the rest wait for the dispatcher. */
  attemptUntil = Number.POSITIVE_INFINITY,
): Promise<string | undefined> {
  if (!changes.length) return undefined;
  const webhooks = (await listWebhooks()).filter((webhook) => webhook.enabled);
  if (!webhooks.length) return undefined;
  // The first failure in stream order is reported; Lambda's retry from it records nothing twice.
  const outcomes = await inTurns(changes, CHANGES_AT_ONCE, async (change) => {
    try {
      return await recordTicketChange(change, webhooks);
    } catch (error) {
      logger.error('webhook deliveries of a ticket change not recorded: the stream retries it', {
        ticketId: change.after.id,
        error,
      });
      return undefined;
    }
  });
  const failed = outcomes.indexOf(undefined);
  const recorded = (failed === -1 ? outcomes : outcomes.slice(0, failed)).flatMap((outcome) => outcome ?? []);
  const failedAt = failed === -1 ? undefined : changes[failed]!.sequenceNumber;
  await attemptAll(recorded, new AttemptContext(), attemptUntil);
  return failedAt;
}

/**
 * Attempts deliveries a few at a time, starting none after `until` (performance.now()); a failure
 * to attempt, or one not started, leaves the delivery pending for the dispatcher.
 */
export async function attemptAll(
  deliveries: readonly StoredDelivery[],
  context = new AttemptContext(),
  until = Number.POSITIVE_INFINITY,
): Promise<number> {
  const outcomes = await inTurns(deliveries, ATTEMPTS_AT_ONCE, async (delivery) => {
    if (performance.now() >= until) return false;
    try {
      return (await attemptDelivery(delivery, context)) !== undefined;
    } catch (error) {
      logger.error('webhook attempt failed before an answer: the dispatcher retries it', {
        webhookId: delivery.webhookId,
        deliveryId: delivery.id,
        error,
      });
      return false;
    }
  });
  return outcomes.filter(Boolean).length;
}

/** `work` over `items`, at most `atOnce` at a time; the results in the items' order. */
async function inTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}
