import { SingleAnswer } from '#shared/http/answers';
import { ReservationResource } from '#shared/selling/contract/reservations';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { getReservationFor } from '#shared/selling/use-cases/own-reservations';

/** The caller's reservation; another customer's is 404. */
export const handler = route('GET /my-account/reservations/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await getReservationFor(caller.id, path.id)),
);

export const answer = () => SingleAnswer(ReservationResource);
