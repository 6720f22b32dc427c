import * as z from '../../schema.ts';
import { DEFAULT_LISTING, type Event, saleCurrency, type TicketType } from '../../events/domain/event.ts';
import { TaxRule } from '../../selling/domain/pricing-schemas.ts';
import { priceSale } from '../../selling/domain/sale-prices.ts';
import { MAX_WILDCARDS, wildcardCount, wildcardPattern } from '../../domain/wildcard.ts';
import { formatInTimeZone } from '../../domain/zoned-time.ts';

/**
 * The customer portal's catalogue: the event entry of `GET /my-account/event` (the spec's
 * table, with strings where it says string), its title and search matching, and the
 * ticket type entry of `GET /my-account/ticket-type/{eventId}`, each with the schema its route answers with. Pure.
 */

const zeroOrOne = z.enum(['0', '1']);
/** The spec's booleans of the event entry are strings: "1" or "0". */
export type Flag = z.output<typeof zeroOrOne>;
const unixOrEmpty = z.lazy(() =>
  z.string().check(z.regex(/^(\d+)?$/), z.describe('Unix seconds as a string; "" when unset.')),
);

export const EventEntryResource = z.lazy(() =>
  z
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
    .check(z.describe('An event the customer can access: published, or one they hold an order for.')),
);
export type EventEntry = z.output<typeof EventEntryResource>;

const flag = (value: boolean): Flag => (value ? '1' : '0');
const unixSeconds = (iso: string | null) => (iso ? String(Math.floor(Date.parse(iso) / 1000)) : '');

export function toEventEntry(stored: Event, sold: number): EventEntry {
  // Events created before the portal fields existed read as unpublished, blank listings.
  const event: Event = { ...DEFAULT_LISTING, ...stored, capacity: stored.capacity ?? 0 };
  return {
    id: String(event.id),
    title: event.title,
    start: formatInTimeZone(new Date(event.startsAt), event.timezone),
    venue: event.venue,
    cutOff: unixSeconds(event.cutOff),
    onSaleDate: unixSeconds(event.onSaleDate),
    publishedDate: event.publishedDate ?? '',
    published: flag(event.published),
    hideDate: flag(event.hideDate),
    hideTime: flag(event.hideTime),
    smallPic: event.smallPic ?? '',
    largePic: event.largePic ?? '',
    shortDescription: event.shortDescription,
    category: event.category,
    ordering: String(event.ordering),
    location: event.location,
    sefUrl: event.sefUrl,
    timezone: event.timezone,
    inventory: { sold, total: event.capacity },
  };
}

/** A pattern's `%` wildcards are capped, so its matching work stays small (shared/domain/wildcard.ts). */
const fewWildcards = (name: string) =>
  z.refine<string>(
    (pattern) => wildcardCount(pattern) <= MAX_WILDCARDS,
    `${name} may hold at most ${MAX_WILDCARDS} % wildcards`,
  );

/** The catalogue's title and search filters, a part of its query (contract/my-account.ts `PortalEventQuery`). */
export const EventFilter = z.strictObject({
  /** Exact and case-sensitive; `%` matches any run of characters (`City%`). */
  title: z.optional(
    z.string().check(z.minLength(1), z.maxLength(200, 'title must be at most 200 characters'), fewWildcards('title')),
  ),
  /** Case-insensitive substring of title, description, venue or venue address (`%` also a wildcard inside it). */
  search: z.optional(
    z.string().check(z.maxLength(100, 'search must be at most 100 characters'), fewWildcards('search')),
  ),
});
export type EventFilter = z.output<typeof EventFilter>;

/** Whether an event meets the title and search filters. */
export function eventMatcher(filter: EventFilter): (event: Event) => boolean {
  const title = filter.title === undefined ? undefined : wildcardPattern(filter.title);
  const search = filter.search ? wildcardPattern(`%${filter.search}%`, { ignoreCase: true }) : undefined;
  return (event) => {
    if (title && !title.matches(event.title)) return false;
    if (!search) return true;
    return [event.title, event.description, event.venue, event.venueAddress].some((text) => search.matches(text ?? ''));
  };
}

/** The portal's order of events: by start, then id. */
export const byStart = (a: Event, b: Event): number => a.startsAt.localeCompare(b.startsAt) || a.id - b.id;

/** A ticket type as the portal lists it. */
export const TicketTypeEntryResource = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    ordering: z.int(),
    price: z.number(),
    tax: z
      .nullable(TaxRule)
      .check(
        z.describe(
          "Ours: the tax on the type's tickets, `inclusive` when `price` includes it, else added to it at the hold; null: untaxed. The event's booking fee and the hold's itemised amounts: `POST /my-account/reservations`.",
        ),
      ),
    available: z
      .int()
      .check(
        z.describe(
          "Ours: tickets of the type on sale now, neither sold nor held by a reservation (the event entry's `inventory.sold` counts sold tickets only).",
        ),
      ),
    bookingFee: z
      .number()
      .check(
        z.describe(
          "Ours: the event's booking fee on one ticket of the type, a tax added to it included (0: none), shown before the hold: what a hold of one adds to `price` (and its tax) as its `fees`. A percentage fee on several tickets is priced per line, so a cent may differ.",
        ),
      ),
  }),
);
export type TicketTypeEntry = z.output<typeof TicketTypeEntryResource>;

/**
 * An event's types in the portal's order: `ordering`, then id; `left` the stock left of each
 * type (shared/selling/data/stock.ts: every type has its stock from its creation); each with its booking fee per
 * ticket, so the fee is shown before the hold.
 */
export function ticketTypeEntries(
  types: readonly TicketType[],
  left: ReadonlyMap<number, number>,
  event: Pick<Event, 'bookingFee' | 'feeTax' | 'shippingTax' | 'currency'>,
): TicketTypeEntry[] {
  return types
    .map((type, index) => ({ type, ordering: type.ordering ?? index }))
    .sort((a, b) => a.ordering - b.ordering || a.type.id - b.type.id)
    .map(({ type, ordering }) => ({
      id: String(type.id),
      name: type.name,
      description: type.description ?? '',
      ordering,
      price: type.price,
      tax: type.tax ?? null,
      available: Math.max(0, left.get(type.id) ?? 0),
      bookingFee: feePreview(type, event),
    }));
}

/** What a buyer pays of the booking fee on one ticket of the type, priced as a hold prices it (sale-prices.ts). */
function feePreview(
  type: TicketType,
  event: Pick<Event, 'bookingFee' | 'feeTax' | 'shippingTax' | 'currency'>,
): number {
  if (!event.bookingFee) return 0;
  const sale = { lines: [{ typeId: type.id, quantity: 1 }], types: new Map([[type.id, type]]), event, shipping: 0 };
  return priceSale({ ...sale, currency: saleCurrency(event) }).lines[0]?.feePaid ?? 0;
}
