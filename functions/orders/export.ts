import { API_PREFIX } from '#shared/api-prefix';
import { route } from '#shared/http/route';
import { OrderExportQuery } from '#shared/selling/contract/order-export';
import { exportEventOrders } from '#shared/selling/use-cases/order-export';

/** An event's orders as CSV, one bounded part per answer, `Link: rel="next"` to the following part while more remain. */
export const handler = route(
  'GET /orders/export',
  { query: OrderExportQuery, binary: 'text/csv' },
  async ({ query, caller }) => {
    const { csv, next } = await exportEventOrders(caller, query.event, { cursor: query._cursor, limit: query._limit });
    const nextPart =
      next &&
      `${API_PREFIX}/orders/export?event=${query.event}&_limit=${query._limit}&_cursor=${encodeURIComponent(next)}`;
    return {
      binary: { contentType: 'text/csv; charset=utf-8', bytes: new TextEncoder().encode(csv) },
      headers: {
        'Content-Disposition': `attachment; filename="orders-event-${query.event}.csv"`,
        ...(nextPart ? { Link: `<${nextPart}>; rel="next"` } : {}),
      },
    };
  },
);
