import * as z from '../../schema.ts';
import { boundedIdList, pagingQuery, ticketPagingQuery, wholeNumber } from '../../request-fields.ts';
import { EventFilter } from '../domain/portal-event.ts';

/** The request and answer schemas of the portal's routes (`/my-account/...`). */

/** The last second of year 9999: a later unix time is no date the table can hold. */
const MAX_UNIX_SECONDS = 253_402_300_799;

/** The spec gives `false` as the default of the two start bounds: `false` (or absence) means unbounded. */
const startBound = (name: string) =>
  z.optional(
    z.union([
      z.pipe(
        z.literal('false'),
        z.transform(() => undefined),
      ),
      z.pipe(
        wholeNumber(name),
        z
          .number()
          .check(z.maximum(MAX_UNIX_SECONDS, `${name} must be a unix time in seconds, at most ${MAX_UNIX_SECONDS}`)),
      ),
    ]),
  );

/** A range's bounds, when both are given, must not be inverted: a 400 naming the lower one. */
export const ordered = (from: string, to: string) =>
  z.refine(
    (query: unknown) => {
      const bounds = query as Record<string, number | string | undefined>;
      const [low, high] = [bounds[from], bounds[to]];
      return low === undefined || high === undefined || low <= high;
    },
    { message: `${from} must not be after ${to}`, path: [from] },
  );

/**
 * The portal lists' paging: `_limit`, `_offset` (a 400 naming `_cursor` past the first 1,000
 * matches: shared/portal/domain/portal-lists.ts) and `_cursor`, the `next` of the previous page.
 */
export const portalPaging = { ...pagingQuery, _cursor: ticketPagingQuery._cursor };

/** The catalogue's query: its title and search filters (the domain's `EventFilter`), the start bounds and paging. */
export const PortalEventQuery = z.lazy(() =>
  z
    .extend(EventFilter, {
      fromEventStart: startBound('fromEventStart'),
      toEventStart: startBound('toEventStart'),
      return: z._default(z.enum(['orders', 'all'], 'return must be orders or all'), 'all'),
      ...portalPaging,
    })
    .check(ordered('fromEventStart', 'toEventStart')),
);

/** `true` or `false`; anything else is a 400 naming the parameter. */
const flag = (name: string) =>
  z._default(
    z.pipe(
      z.enum(['true', 'false'], `${name} must be true or false`),
      z.transform((value) => value === 'true'),
    ),
    false,
  );

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An ISO-8601 date (a whole UTC day) or date-time, as the inclusive ISO-8601 UTC bound it means. */
export const purchaseBound = (name: string, end: 'start' | 'end') =>
  z.optional(
    z.pipe(
      z.union(
        [
          z.iso.date().check(z.maxLength(10)),
          // A date-time with an offset and a fraction of a second to the nanosecond is 35 characters.
          z.iso.datetime({ offset: true }).check(z.maxLength(40)),
        ],
        `${name} must be an ISO-8601 date or date-time`,
      ),
      z.transform((value) => {
        if (!DATE.test(value)) return new Date(value).toISOString();
        return `${value}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
      }),
    ),
  );

export const OrderListQuery = z.lazy(() =>
  z
    .strictObject({
      event: z.optional(boundedIdList('event', 10)),
      ticketType: z.optional(boundedIdList('ticketType', 20)),
      fromPurchaseDate: purchaseBound('fromPurchaseDate', 'start'),
      toPurchaseDate: purchaseBound('toPurchaseDate', 'end'),
      includeTickets: flag('includeTickets'),
      includeTrans: flag('includeTrans'),
      includeAnswers: flag('includeAnswers'),
      ...portalPaging,
    })
    .check(ordered('fromPurchaseDate', 'toPurchaseDate')),
);

/** `{eventId}` and `{ticketId}` path parameters. */

// Defined where the use cases parse or build them (the customer) or in the routes' shared modules.
export { CustomerLoginBody, CustomerResource, CustomerSignIn } from '../../identity/domain/customer.ts';
export { TicketResource } from '../../tickets/domain/ticket-resource.ts';
export { AcceptClaimBody } from '../../tickets/contract/claims.ts';
export { AccountUpdate } from '../../identity/domain/customer.ts';
export { NewCustomerInput } from '../../identity/domain/customer.ts';

/** `GET /my-account/orders`: an order entry, with the expansions asked for (its schema lives with `toOrderEntry`). */
export { OrderEntryResource, OrderShippingResource } from '../../selling/domain/order-entry.ts';

/** `GET /my-account/payment-processor`: public settings only (its schema lives with the domain type). */
export { PaymentProcessorResource } from '../../selling/domain/payment-processor.ts';

/** The portal's catalogue answers (`GET /my-account/event`, `GET /my-account/ticket-type/{eventId}`): their schemas live with the domain's catalogue. */
export { EventEntryResource, TicketTypeEntryResource } from '../domain/portal-event.ts';

/** `GET /my-account/upgrades/{ticketId}`: its schema lives with the domain rule that builds it. */
export { UpgradeOptionResource } from '../domain/upgrade.ts';

/** `GET /my-account/wave-time/{eventId}`: its schema lives with the domain rule that builds it. */
export { WaveTimeResource } from '../../events/domain/wave-time.ts';
