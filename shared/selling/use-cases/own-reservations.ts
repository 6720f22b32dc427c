import { getReservation } from '../data/reservations.ts';
import { toReservationView, type Reservation } from '../domain/reservation.ts';
import { NotFound } from '../../errors.ts';

/**
 * A customer's own reservation, as the hold left it: apart from the hold (reservations.ts) and the release
 * (release-reservation.ts), so that neither a hold's function nor a read carries payment code.
 */

/** The caller's own reservation: another customer's, or none, is 404 alike. */
export async function ownReservation(customerId: number, id: number): Promise<Reservation> {
  const reservation = await getReservation(id);
  if (!reservation || reservation.customerId !== customerId) throw new NotFound('Reservation', id);
  return reservation;
}

/** `GET /my-account/reservations/{id}`. */
export async function getReservationFor(customerId: number, id: number) {
  return toReservationView(await ownReservation(customerId, id));
}
