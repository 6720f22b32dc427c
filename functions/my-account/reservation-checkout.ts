import { SingleAnswer } from '#shared/http/answers';
import { CheckoutBody, CheckoutResource } from '#shared/selling/contract/checkout';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { checkoutReservation } from '#shared/selling/use-cases/checkout';

/** Checks the caller's held reservation out: its order awaiting payment and the PaymentIntent to confirm. */
export const handler = route(
  'POST /my-account/reservations/{id}/checkout',
  { path: PathId, body: CheckoutBody, status: 201 },
  async ({ path, body, caller }) => ({
    ...single(await checkoutReservation(caller.id, path.id, body)),
    status: 201,
  }),
);

export const answer = () => SingleAnswer(CheckoutResource);
