import { SingleAnswer } from '#shared/http/answers';
import { clientNetwork } from '#shared/http/client-address';
import { NewReservationBody, ReservationResource } from '#shared/selling/contract/reservations';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { createReservation } from '#shared/selling/use-cases/reservations';

/** Holds tickets for the caller (the OpenAPI description of POST /my-account/reservations). */
export const handler = route(
  'POST /my-account/reservations',
  { body: NewReservationBody, status: 201 },
  async ({ body, caller, event }) => ({
    ...single(await createReservation(caller.id, clientNetwork(event), body)),
    status: 201,
  }),
);

export const answer = () => SingleAnswer(ReservationResource);
