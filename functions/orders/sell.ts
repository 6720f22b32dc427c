import { SingleAnswer } from '#shared/http/answers';
import { BoxOfficeSaleBody } from '#shared/selling/contract/box-office';
import { StaffOrderResource } from '#shared/selling/contract/orders';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { sellOrder } from '#shared/selling/use-cases/sell-order';

/** Staff sell at the box office: the order active at once with its tickets, answered as `GET /orders/{id}`. */
export const handler = route('POST /orders', { body: BoxOfficeSaleBody, status: 201 }, async ({ body, caller }) => ({
  ...single(await sellOrder(caller, body)),
  status: 201,
}));

export const answer = () => SingleAnswer(StaffOrderResource);
