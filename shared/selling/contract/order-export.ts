/**
 * The contract of the orders' export (`GET /orders/export`): which event, and the list's cursor of the part wanted
 * (the `Link: <…>; rel="next"` of the part before), and the most orders a part holds.
 */
import * as z from '../../schema.ts';
import { wholeNumber } from '../../request-fields.ts';
import { EXPORT_ORDERS_PER_PART } from '../domain/order-csv.ts';

export const OrderExportQuery = z.lazy(() =>
  z.strictObject({
    event: wholeNumber('event', { positive: true }),
    _limit: z._default(
      z.pipe(
        wholeNumber('_limit', { positive: true }),
        z.number().check(z.maximum(EXPORT_ORDERS_PER_PART, `_limit must be at most ${EXPORT_ORDERS_PER_PART}`)),
      ),
      EXPORT_ORDERS_PER_PART,
    ),
    _cursor: z.optional(
      z
        .string()
        .check(z.minLength(1, '_cursor must not be empty'), z.maxLength(200, '_cursor must be at most 200 characters')),
    ),
  }),
);
