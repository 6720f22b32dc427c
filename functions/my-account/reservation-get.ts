import { SingleAnswer } from '#shared/http/answers';
import { ReservationResource } from '#shared/http/contract/reservations';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { getReservationFor } from '#shared/use-cases/portal/own-reservations';

/** The caller's reservation; another customer's is 404. */
export const handler = route('GET /my-account/reservations/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await getReservationFor(caller.id, path.id)),
);

export const answer = () => SingleAnswer(ReservationResource);
