import { CursorPageAnswer } from '#shared/http/answers';
import { cursorPaged } from '#shared/http/envelopes';
import { OrderListQuery, OrderEntryResource } from '#shared/portal/contract/my-account';
import { route } from '#shared/http/route';
import { listCustomerOrders } from '#shared/portal/use-cases/orders';

export const handler = route('GET /my-account/orders', { query: OrderListQuery }, async ({ query, caller }) =>
  cursorPaged(
    await listCustomerOrders(caller.id, {
      events: query.event,
      ticketTypes: query.ticketType,
      from: query.fromPurchaseDate,
      to: query.toPurchaseDate,
      limit: query._limit,
      offset: query._offset,
      cursor: query._cursor,
      include: { tickets: query.includeTickets, transactions: query.includeTrans, answers: query.includeAnswers },
    }),
  ),
);

export const answer = () => CursorPageAnswer(OrderEntryResource);
