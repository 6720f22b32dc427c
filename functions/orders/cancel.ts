import { SingleAnswer } from '#shared/http/answers';
import { CancelOrderBody, StaffOrderResource } from '#shared/selling/contract/orders';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { cancelOrder } from '#shared/selling/use-cases/cancel-order';
import { cancelPart } from '#shared/selling/use-cases/cancel-part';

export const handler = route(
  'POST /orders/{id}/cancel',
  { path: PathId, body: CancelOrderBody },
  async ({ path, body, caller }) =>
    single(
      body.ticketIds
        ? await cancelPart(caller, path.id, body.ticketIds, body.force ?? false)
        : await cancelOrder(caller, path.id, { force: body.force }),
    ),
);

export const answer = () => SingleAnswer(StaffOrderResource);
