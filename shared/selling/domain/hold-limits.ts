import type { Event } from '../../events/domain/event.ts';
import { MAX_TICKETS_PER_RESERVATION, type Reservation } from './reservation.ts';

/**
 * What one customer and one network may hold of an event at once (shared/README.md "Reservations": hoarding). A
 * customer holds one reservation of an event at a time, so their cap bounds its tickets: by default one order's
 * maximum (pretix's "maximum items per order"), at most that. A network (what the per-network rate window keys:
 * an IPv4 address, an IPv6 /64) is a household, an office or a mobile carrier's shared address, so its default is
 * a few customers' worth (Ticketmaster's and AXS's limits per household), not one; the organiser may lower either
 * for a small event or raise the network's for a venue selling to one campus. Paid tickets are no longer held:
 * neither cap limits what anyone buys over time, only what sits out of sale at once.
 */
export const DEFAULT_MAX_HELD_PER_CUSTOMER = MAX_TICKETS_PER_RESERVATION;
export const DEFAULT_MAX_HELD_PER_NETWORK = 4 * DEFAULT_MAX_HELD_PER_CUSTOMER;
/** The highest per-network cap an organiser may set (past it, the cap would no longer bound anything real). */
export const MAX_HELD_PER_NETWORK = 1000;

export interface HoldCaps {
  perCustomer: number;
  perNetwork: number;
}

/** The event's caps on what is held at once, its defaults where the organiser set none. */
export const holdCaps = (event: Pick<Event, 'maxHeldPerCustomer' | 'maxHeldPerNetwork'>): HoldCaps => ({
  perCustomer: event.maxHeldPerCustomer ?? DEFAULT_MAX_HELD_PER_CUSTOMER,
  perNetwork: event.maxHeldPerNetwork ?? DEFAULT_MAX_HELD_PER_NETWORK,
});

/**
 * After a customer's hold of an event ends without payment (released or lapsed), how long before they may hold
 * the event again: long enough that the tickets it gave back are on sale to others (the lapsing job runs every
 * minute), short enough that a buyer who let go to change their quantity is back within two minutes. Without it a
 * release and an immediate re-hold keep the same tickets out of sale for good.
 */
export const HOLD_COOL_DOWN_SECONDS = 120;

/** The tickets a reservation holds (what counts against the caps). */
export const heldQuantity = (reservation: Pick<Reservation, 'takes'>): number =>
  reservation.takes.reduce((sum, take) => sum + take.quantity, 0);

/**
 * How long a checkout keeps a held reservation for its payment: `paymentMinutes` from now, never past the event's
 * reservation minutes plus `paymentMinutes` counted from the hold's creation, so no checkout (a second one, a retry,
 * one made after the hold's own minutes ran out but before the lapsing job came round) keeps tickets longer than a
 * buyer who checked out in the hold's last second. Never earlier than the hold's own end.
 */
export function checkoutExpiry(
  reservation: Pick<Reservation, 'created' | 'expiresAt'>,
  reservationMinutes: number,
  paymentMinutes: number,
  at: Date,
): Date {
  const latest = Date.parse(reservation.created) + (reservationMinutes + paymentMinutes) * 60_000;
  const wanted = Math.max(Date.parse(reservation.expiresAt), at.getTime() + paymentMinutes * 60_000);
  return new Date(Math.min(wanted, Math.max(latest, Date.parse(reservation.expiresAt))));
}
