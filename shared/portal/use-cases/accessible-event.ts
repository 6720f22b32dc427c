import { holdsOrderFor } from '../data/customer-events.ts';
import { getEvent } from '../../events/data/events.ts';
import type { Event } from '../../events/domain/event.ts';
import { NotFound } from '../../errors.ts';

/** The event, when the customer can access it (published, or they hold an order for it); otherwise 404, as if it did not exist. */
export async function accessibleEvent(customerId: number, eventId: number): Promise<Event> {
  const [event, linked] = await Promise.all([getEvent(eventId), holdsOrderFor(customerId, eventId)]);
  if (!event.published && !linked) throw new NotFound('Event', eventId);
  return event;
}
