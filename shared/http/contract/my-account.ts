import * as z from '../../schema.ts';
import { boundedIdList, pagingQuery, ticketPagingQuery, wholeNumber } from '../paging.ts';
import { MAX_WILDCARDS, wildcardCount } from '../../domain/wildcard.ts';
import { PAYMENT_MODES, PAYMENT_PROVIDERS, type PaymentProcessorAnswer } from '../../domain/payment-processor.ts';
import type { EventEntry, TicketTypeEntry } from '../../domain/portal-event.ts';
import type { UpgradeOption } from '../../domain/upgrade.ts';
import type { WaveTimeEntry } from '../../domain/wave-time.ts';

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

/** A pattern's `%` wildcards are capped, so its matching work stays small (shared/domain/wildcard.ts). */
const fewWildcards = (name: string) =>
  z.refine<string>(
    (pattern) => wildcardCount(pattern) <= MAX_WILDCARDS,
    `${name} may hold at most ${MAX_WILDCARDS} % wildcards`,
  );

/**
 * The portal lists' paging: `_limit`, `_offset` (a 400 naming `_cursor` past the first 1,000
 * matches: shared/domain/portal-lists.ts) and `_cursor`, the `next` of the previous page.
 */
export const portalPaging = { ...pagingQuery, _cursor: ticketPagingQuery._cursor };

export const PortalEventQuery = z
  .strictObject({
    title: z.optional(
      z.string().check(z.minLength(1), z.maxLength(200, 'title must be at most 200 characters'), fewWildcards('title')),
    ),
    search: z.optional(
      z.string().check(z.maxLength(100, 'search must be at most 100 characters'), fewWildcards('search')),
    ),
    fromEventStart: startBound('fromEventStart'),
    toEventStart: startBound('toEventStart'),
    return: z._default(z.enum(['orders', 'all'], 'return must be orders or all'), 'all'),
    ...portalPaging,
  })
  .check(ordered('fromEventStart', 'toEventStart'));

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

export const OrderListQuery = z
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
  .check(ordered('fromPurchaseDate', 'toPurchaseDate'));

/** `{eventId}` and `{ticketId}` path parameters. */

// Defined where the use cases parse or build them (the customer) or in the routes' shared modules.
export { CustomerResource, CustomerSignIn } from '../../domain/customer.ts';
export { TicketResource } from './ticket-resource.ts';
export { AcceptClaimBody } from './claims.ts';
export { AccountUpdate } from '../../domain/customer.ts';
export { NewCustomerInput } from '../../domain/customer.ts';

/** `GET /my-account/orders`: an order entry, with the expansions asked for (its schema lives with `toOrderEntry`). */
export { OrderEntryResource, OrderShippingResource } from '../../domain/order-entry.ts';

/** `GET /my-account/payment-processor`: public settings only, never a secret key. */
export const PaymentProcessorResource = z.strictObject({
  processor: z
    .enum(PAYMENT_PROVIDERS)
    .check(
      z.describe(
        "Who takes the checkout's payments (`stripe`: with Stripe.js and `publishableKey`), as the checkout's `payment.processor`.",
      ),
    ),
  provider: z.enum(PAYMENT_PROVIDERS),
  publishableKey: z.string().check(z.describe("The provider's publishable (client-side) key.")),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/), z.describe('ISO 4217.')),
  mode: z.enum(PAYMENT_MODES),
  merchantName: z.string(),
});

true satisfies z.Same<z.output<typeof PaymentProcessorResource>, PaymentProcessorAnswer>;

/**
 * The portal's catalogue answers as schemas (`GET /my-account/event`,
 * `GET /my-account/ticket-type/{eventId}`): declared by the handlers, documented in the
 * OpenAPI document, parsed in the tests. Nothing parses answers per request.
 */
const zeroOrOne = z.enum(['0', '1']);
const unixOrEmpty = z.string().check(z.regex(/^(\d+)?$/), z.describe('Unix seconds as a string; "" when unset.'));

export const EventEntryResource = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    start: z.iso.datetime({ offset: true }).check(z.describe("ISO-8601 with the event's own offset.")),
    venue: z.string(),
    cutOff: unixOrEmpty,
    onSaleDate: unixOrEmpty,
    publishedDate: z
      .union([z.iso.datetime(), z.literal('')])
      .check(z.describe('An instant (UTC, `Z`); "" when unset.')),
    published: zeroOrOne,
    hideDate: zeroOrOne,
    hideTime: zeroOrOne,
    smallPic: z.string().check(z.describe('URL; "" when none.')),
    largePic: z.string().check(z.describe('URL; "" when none.')),
    shortDescription: z.string(),
    category: z.string(),
    ordering: z.string().check(z.regex(/^-?\d+$/)),
    location: z.string(),
    sefUrl: z.string(),
    timezone: z.string(),
    inventory: z
      .strictObject({ sold: z.int(), total: z.int() })
      .check(
        z.describe(
          "`sold`: the event's tickets holding a place; `total`: its capacity (the sum of its types' totals).",
        ),
      ),
  })
  .check(z.describe('An event the customer can access: published, or one they hold an order for.'));

export const TicketTypeEntryResource = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ordering: z.int(),
  price: z.number(),
  available: z
    .int()
    .check(
      z.describe(
        "Ours: tickets of the type on sale now, neither sold nor held by a reservation (the event entry's `inventory.sold` counts sold tickets only).",
      ),
    ),
});

true satisfies z.Same<z.output<typeof EventEntryResource>, EventEntry>;
true satisfies z.Same<keyof z.output<typeof EventEntryResource>, keyof EventEntry>;
true satisfies z.Same<z.output<typeof TicketTypeEntryResource>, TicketTypeEntry>;

/** `GET /my-account/upgrades/{ticketId}`: the types of the ticket's event priced above its own, cheapest first. */
export const UpgradeOptionResource = z.strictObject({
  ticketId: z.int(),
  fromTypeId: z.int(),
  targetTypeId: z.int(),
  name: z.string(),
  description: z.string(),
  priceDifference: z.number(),
  currency: z.string().check(z.describe("The event's currency (ISO 4217), what its checkout charges in.")),
  available: z.boolean().check(z.describe('The target type has room.')),
});

true satisfies z.Same<z.output<typeof UpgradeOptionResource>, UpgradeOption>;

/** `GET /my-account/wave-time/{eventId}`: an event's start waves, by start time. */
export const WaveTimeResource = z.strictObject({
  id: z.int(),
  eventId: z.int(),
  name: z.string(),
  startTime: z.iso.datetime({ offset: true }).check(z.describe("ISO-8601 with the event's own offset.")),
  capacity: z.int(),
});

true satisfies z.Same<z.output<typeof WaveTimeResource>, WaveTimeEntry>;
