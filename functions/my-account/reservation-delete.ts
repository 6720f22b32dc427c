import { SingleAnswer } from '#shared/http/answers';
import { ReservationResource } from '#shared/selling/contract/reservations';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { releaseReservationFor } from '#shared/selling/use-cases/release-reservation';

/** Releases the caller's reservation, its tickets on sale again at once; idempotent. */
export const handler = route('DELETE /my-account/reservations/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await releaseReservationFor(caller.id, path.id)),
);

export const answer = () => SingleAnswer(ReservationResource);
