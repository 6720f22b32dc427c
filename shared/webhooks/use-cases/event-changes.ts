import type { EventStreamChange } from '../data/event-change-stream.ts';
import { readEventHistoryEntry } from '../../events/data/event-admin-reads.ts';
import type { StoredDelivery } from '../data/webhooks.ts';
import { EVENT_CHANGE_TYPE_NAMES, eventChangeMessage, eventChangeType } from '../domain/event-webhooks.ts';
import { covers, type Webhook } from '../domain/webhooks.ts';
import { logger } from '../../logger.ts';
import { changeDelivery } from './deliveries.ts';
import { deliveryTime } from '../domain/delivery-times.ts';

/**
 * The stream's side of the `event.*` types: an event's change becomes one delivery per subscription that wants it,
 * as a ticket's does (ticket-changes.ts): its type from the history entry the change wrote at its version (one
 * read, only when some subscription may want it), its id from the change (commit time, event and version), so a
 * change read again sends nothing twice. Scoped as a ticket of that event: a subscription naming other events does
 * not have it, and at each attempt its administrator must still reach the event (deliveries.ts).
 */
export async function deliveriesOfEventChange(
  change: EventStreamChange,
  webhooks: readonly Webhook[],
): Promise<StoredDelivery[]> {
  const event = (change.after ?? change.before)!;
  const eventIds = [event.id];
  if (!webhooks.some((webhook) => EVENT_CHANGE_TYPE_NAMES.some((type) => covers(webhook, type, eventIds)))) return [];
  const entry = await readEventHistoryEntry(event.id, change.version);
  if (!entry) {
    // Every change the events routes make writes its history entry in its transaction; one without (an event
    // written in bulk by a seed, a backfill) is not a change an integrator is told of.
    logger.warn('event item changed without a history entry: no webhook message', {
      eventId: event.id,
      version: change.version,
    });
    return [];
  }
  const type = eventChangeType(entry.action);
  const targets = webhooks.filter((webhook) => covers(webhook, type, eventIds));
  if (!targets.length) return [];
  const body = JSON.stringify(eventChangeMessage(entry, event));
  const id = `${deliveryTime(change.committedAt)}-event-${event.id}-${change.version}`;
  return targets.map((webhook) => ({
    ...changeDelivery(webhook, id, entry.at),
    type,
    ticketId: null,
    eventIds,
    body,
  }));
}
