import { now } from '../../clock.ts';
import { keptPerContainer } from '../../container-state.ts';
import type { Event, TicketType } from '../../events/domain/event.ts';

/**
 * An event and its ticket types as a hold reads them (read by the caller: the portal's reservations.ts), kept
 * in the container for SALE_CACHE_SECONDS: at an on-sale every hold of an event reads the same two items (a
 * GetItem and a Query of the event's partition), so a warm container reads them once every few seconds
 * instead of on every request.
 *
 * Why a stale copy cannot oversell: what is left is never read from here. Each take is a write on the type's
 * stock item conditional on `left` there (selling/data/stock.ts `holdAction`), so a total lowered, a type deleted (its
 * stock items gone: the condition fails) or a sale elsewhere are all seen by the transaction itself. What a copy
 * may have stale, for at most SALE_CACHE_SECONDS after the change was written: publication and the sale's
 * dates (an unpublished or cut-off event stops selling within those seconds, as a cut-off date read from the
 * copy is still compared with the clock of each request), a type's price and name, a type added (unknown to a
 * hold: its 400), the reservation minutes and the hold caps. Five seconds: an organiser's "stop" takes effect
 * about as fast as they can check it, and a container taking 100 holds a second reads the event once in 500.
 * A container that wrote the change itself forgets its copy at once (event-admin-writes.ts).
 */
export const SALE_CACHE_SECONDS = 5;

/** Events kept at most (an on-sale has a few; the oldest copy goes first). */
const MAX_KEPT = 100;

interface Kept {
  readAt: number;
  event: Event;
  types: TicketType[];
}

const kept = new Map<number, Kept>();
keptPerContainer(() => kept.clear());

/** The event and its types from this container's copy when fresh enough, else from `read` (and kept). */
export async function eventForSale(
  eventId: number,
  read: () => Promise<{ event: Event; types: TicketType[] }>,
): Promise<{ event: Event; types: TicketType[] }> {
  const at = now().getTime();
  const copy = kept.get(eventId);
  if (copy && at - copy.readAt < SALE_CACHE_SECONDS * 1000) return copy;
  const { event, types } = await read();
  kept.delete(eventId);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(eventId, { readAt: at, event, types });
  return { event, types };
}

/** This container changed the event: its next hold reads it again. */
export function forgetEventForSale(eventId: number): void {
  kept.delete(eventId);
}
