import { now } from '../../clock.ts';
import { releaseHold } from '../data/reservations.ts';
import { toReservationView } from '../domain/reservation.ts';
import { Conflict } from '../../errors.ts';
import { cancelCheckoutPayment } from './checkout-intent.ts';
import { ownReservation } from './own-reservations.ts';

/**
 * `DELETE /my-account/reservations/{id}`: releases it, its stock back in the same transaction, and a checked-out
 * one's order awaiting payment `expired` with it (its PaymentIntent cancelled at Stripe after: checkout-intent.ts).
 * Idempotent: one released or lapsed already answers as it is; a paid one, or one whose payment came in and is
 * issuing its tickets, is 409 `reservation_paid`.
 */
export async function releaseReservationFor(customerId: number, id: number) {
  await ownReservation(customerId, id);
  const released = (await releaseHold(id, 'released', now()))!;
  if (released.status === 'paid' || released.status === 'checked_out')
    throw new Conflict(`Reservation ${id} is paid: its tickets are issued.`, 'reservation_paid');
  if (released.status === 'released') await cancelCheckoutPayment(released);
  return toReservationView(released);
}
