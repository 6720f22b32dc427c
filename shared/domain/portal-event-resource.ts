import * as z from '../schema.ts';
import type { EventEntry, TicketTypeEntry } from './portal-event.ts';

/**
 * The portal's catalogue answers as schemas (`GET /my-account/event`,
 * `GET /my-account/ticket-type/{eventId}`): declared by the handlers, documented in the
 * OpenAPI document, parsed in the tests. Nothing parses answers per request.
 */
const flag = z.enum(['0', '1']);
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
    published: flag,
    hideDate: flag,
    hideTime: flag,
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
});

true satisfies z.Same<z.output<typeof EventEntryResource>, EventEntry>;
true satisfies z.Same<keyof z.output<typeof EventEntryResource>, keyof EventEntry>;
true satisfies z.Same<z.output<typeof TicketTypeEntryResource>, TicketTypeEntry>;
