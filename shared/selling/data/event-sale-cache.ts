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
  const copy = keptEventForSale(eventId);
  if (copy) return copy;
  const at = now().getTime();
  const { event, types } = await read();
  kept.delete(eventId);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(eventId, { readAt: at, event, types });
  return { event, types };
}

/** This container's copy of the event and its types when fresh enough, else undefined: nothing read, nothing kept. */
export function keptEventForSale(eventId: number): { event: Event; types: TicketType[] } | undefined {
  const copy = kept.get(eventId);
  return copy && now().getTime() - copy.readAt < SALE_CACHE_SECONDS * 1000 ? copy : undefined;
}

/** This container changed the event: its next hold reads it again. */
export function forgetEventForSale(eventId: number): void {
  kept.delete(eventId);
}

/**
 * Ticket types this container read whole and found short (every stock shard read, fewer places left than a line
 * wanted), kept SOLD_OUT_MEMO_MS with what was left. Once a type sells out, most holds of an on-sale ask for it again,
 * and each would read every one of its shards (up to 64 read units, a second BatchGetItem) to be told `sold_out` again.
 * A refusal from the memo takes nothing, so it cannot oversell; it may refuse, for at most that second, a place given
 * back in another container (a release, a lapse, a total raised): the waiting queue's buyer asks again on its next
 * poll. A container that gives places back itself forgets the type at once (stock.ts `move`).
 */
export const SOLD_OUT_MEMO_MS = 1_000;

const soldOut = new Map<number, { left: number; until: number }>();
keptPerContainer(() => soldOut.clear());

/** A whole read of the type found `left` places, too few for a line. */
export function rememberSoldOut(typeId: number, left: number): void {
  soldOut.delete(typeId);
  if (soldOut.size >= MAX_KEPT) soldOut.delete(soldOut.keys().next().value!);
  soldOut.set(typeId, { left, until: now().getTime() + SOLD_OUT_MEMO_MS });
}

/** The places a whole read of the type found within SOLD_OUT_MEMO_MS, when it found too few; else undefined. */
export function soldOutLeft(typeId: number): number | undefined {
  const memo = soldOut.get(typeId);
  if (memo && now().getTime() < memo.until) return memo.left;
  soldOut.delete(typeId);
  return undefined;
}

/** This container gives places of the type back: its next hold reads the stock again. */
export function forgetSoldOut(typeId: number): void {
  soldOut.delete(typeId);
}
