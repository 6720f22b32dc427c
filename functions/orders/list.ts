import { CursorPageAnswer } from '#shared/http/answers';
import { StaffOrderListQuery, StaffOrderResource } from '#shared/selling/contract/orders';
import { cursorPaged } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { listStaffOrders } from '#shared/selling/use-cases/order-reads';

export const handler = route('GET /orders', { query: StaffOrderListQuery }, async ({ query, caller }) =>
  cursorPaged(
    await listStaffOrders(caller, {
      eventId: query.eventId,
      status: query.status,
      customerId: query.customerId,
      email: query.email,
      from: query.fromPurchaseDate,
      to: query.toPurchaseDate,
      dispute: query.dispute,
      promoCode: query.promoCode,
      limit: query._limit,
      offset: query._offset,
      cursor: query._cursor,
    }),
  ),
);

export const answer = () => CursorPageAnswer(StaffOrderResource);
