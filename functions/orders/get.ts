import { SingleAnswer } from '#shared/http/answers';
import { StaffOrderResource } from '#shared/selling/contract/orders';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { readStaffOrder } from '#shared/selling/use-cases/order-reads';

export const handler = route('GET /orders/{id}', { path: PathId }, async ({ path, caller }) =>
  single(await readStaffOrder(caller, path.id)),
);

export const answer = () => SingleAnswer(StaffOrderResource);
