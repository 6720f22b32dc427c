import * as z from '../../schema.ts';
import { wholeNumber } from '../../request-fields.ts';
import type { IdempotencyScope } from '../../domain/idempotency.ts';

/**
 * `POST /tickets/{id}/check-in`'s query, `?event=<id>`: the event being scanned (default: the ticket's own event).
 * In the domain, as the check-in's use case takes it, with its own module so that the modules the gate's rules reach
 * (the statistics, the lists) build no request schema.
 */
export const CheckInQuery = z.lazy(() =>
  z.strictObject({ event: z.optional(wholeNumber('event', { positive: true })) }),
);

/** A check-in as the use case takes it: the route's query, and who scans from the token. */
export type CheckInRequest = z.output<typeof CheckInQuery> & {
  /** The administrator scanning. */
  adminId: number;
  /** The scanner's events (undefined: all): the scanned event must be one, the ticket of one or granting one. */
  eventScope?: readonly number[];
  /** The request's `Idempotency-Key` scope: a retry with the same key answers the first answer. */
  idempotency?: IdempotencyScope;
};
