import * as z from '../schema.ts';
import { isValidTimeZone } from './event.ts';
import { MAX_GRANTS_PER_TYPE, MAX_TICKET_TYPES, MAX_WAVE_TIMES } from './event-limits.ts';
import { money } from './money.ts';
import { WAIVER_KINDS } from './waivers.ts';
import { MAX_RESERVATION_MINUTES, MIN_RESERVATION_MINUTES } from './reservation.ts';

/** A waiver's text (each version is an item of its own). */
export const MAX_WAIVER_TEXT = 50_000;

/**
 * What the events routes accept (`POST /events`, `PATCH /events/{id}`, the ticket-type
 * routes): the spec's event entry fields, strict (unknown fields are a 400), each bound
 * named, the counts' limits those of event-limits.ts; the handlers declare them through
 * shared/http/contract/events.ts.
 */
export const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
export const name = (max = 200) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));
/** The last millisecond of year 9999: instants are stored as four-digit-year ISO strings, which sort as text. */
const MAX_INSTANT = 253_402_300_799_999;
/** An instant with its offset (or `Z`), stored as UTC: from 1970 to 9999 (an offset cannot push it outside). */
export const instant = () =>
  z.pipe(
    z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time with an offset' }).check(
      z.maxLength(40),
      z.refine((value) => {
        const time = Date.parse(value);
        return time >= 0 && time <= MAX_INSTANT;
      }, 'must be between 1970 and 9999'),
    ),
    z.transform((value: string) => new Date(value).toISOString()),
  );
const picture = () =>
  z.nullable(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).check(z.maxLength(2000)));
const timezone = () =>
  z.string().check(z.maxLength(64), z.refine(isValidTimeZone, 'must be an IANA time zone, e.g. Europe/London'));
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const currency = () =>
  z.string().check(
    z.maxLength(3, 'must be an ISO 4217 code, e.g. EUR'),
    z.refine((code) => CURRENCIES.has(code), 'must be an ISO 4217 code, e.g. EUR'),
  );
const ordering = () => z.int().check(z.minimum(-1_000_000), z.maximum(1_000_000));
export const count = () =>
  z.int().check(z.minimum(0, 'must not be negative'), z.maximum(1_000_000, 'must be at most 1000000'));

/** The listing fields (each optional in a create, defaults in shared/domain/event.ts DEFAULT_LISTING). */
const listing = {
  venue: text(200),
  venueAddress: text(500),
  description: text(5000),
  shortDescription: text(500),
  category: text(100),
  location: text(200),
  sefUrl: text(200),
  smallPic: picture(),
  largePic: picture(),
  ordering: ordering(),
  onSaleDate: z.nullable(instant()),
  cutOff: z.nullable(instant()),
  hideDate: z.boolean(),
  hideTime: z.boolean(),
};

const optional = <T extends Record<string, z.ZodMiniType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof T]: z.ZodMiniOptional<T[K]>;
  };

const ticketTypeFields = (maxGrants: number) => ({
  name: name(),
  description: text(2000),
  ordering: ordering(),
  price: money(),
  total: count(),
  grants: z
    .array(z.int().check(z.positive('must be an event id')))
    .check(z.maxLength(maxGrants, `a type grants entry to at most ${maxGrants} other events`)),
});

interface EventLimits {
  ticketTypes: number;
  waveTimes: number;
  grants: number;
  /** Questions, their options and teams per event (bound by what one creation's transaction holds). */
  each: number;
}

function newEventBody(limits: EventLimits) {
  const type = ticketTypeFields(limits.grants);
  return z.strictObject({
    title: name(),
    start: instant(),
    timezone: timezone(),
    currency: currency(),
    ...optional(listing),
    ticketTypes: z.optional(
      z
        .array(
          z.strictObject({
            name: type.name,
            price: type.price,
            total: type.total,
            description: z.optional(type.description),
            ordering: z.optional(type.ordering),
            grants: z.optional(type.grants),
          }),
        )
        .check(z.maxLength(limits.ticketTypes, `an event holds at most ${limits.ticketTypes} ticket types`)),
    ),
    waveTimes: z.optional(
      z
        .array(z.strictObject({ name: name(), startTime: instant(), capacity: count() }))
        .check(z.maxLength(limits.waveTimes, `an event holds at most ${limits.waveTimes} wave times`)),
    ),
    questions: z.optional(
      z
        .array(
          z.strictObject({
            text: name(500),
            required: z.optional(z.boolean()),
            options: z.optional(
              z
                .array(z.strictObject({ text: name(200), sku: z.optional(text(100)) }))
                .check(z.maxLength(limits.each, `a question has at most ${limits.each} options`)),
            ),
          }),
        )
        .check(z.maxLength(limits.each, `an event has at most ${limits.each} questions`)),
    ),
    waivers: z.optional(
      z
        .array(
          z.strictObject({
            title: name(),
            kind: z.optional(z.enum(WAIVER_KINDS, `must be one of ${WAIVER_KINDS.join(', ')}`)),
            text: name(MAX_WAIVER_TEXT),
            /** The type (its position in `ticketTypes`) whose tickets sign it; omitted: every ticket. */
            ticketTypeIndex: z.optional(z.int().check(z.minimum(0), z.maximum(limits.ticketTypes - 1))),
          }),
        )
        .check(z.maxLength(limits.each, `an event has at most ${limits.each} waivers`)),
    ),
    teams: z.optional(
      z
        .array(z.strictObject({ name: name() }))
        .check(z.maxLength(limits.each, `an event has at most ${limits.each} teams`)),
    ),
  });
}

function eventPatchBody() {
  return z.strictObject({
    title: z.optional(name()),
    start: z.optional(instant()),
    timezone: z.optional(timezone()),
    currency: z.optional(currency()),
    ...optional(listing),
    published: z.optional(z.boolean()),
    reservationMinutes: z.optional(
      z
        .int()
        .check(
          z.minimum(MIN_RESERVATION_MINUTES, 'must be at least 1'),
          z.maximum(MAX_RESERVATION_MINUTES, 'must be at most 60'),
        ),
    ),
    /** The version the client read: a later one is 409 `stale_version`. */
    version: z.optional(z.int().check(z.positive())),
  });
}

function ticketTypeBodies(maxGrants: number) {
  const type = ticketTypeFields(maxGrants);
  return {
    create: z.strictObject({
      name: type.name,
      price: type.price,
      total: type.total,
      description: z._default(type.description, ''),
      ordering: z.optional(type.ordering),
      grants: z._default(type.grants, []),
    }),
    patch: z.strictObject({ ...optional(type), version: z.optional(z.int().check(z.positive())) }),
  };
}

/** Questions, options and teams a creation may carry (its one transaction holds at most 100 writes). */
const EACH = 50;
/**
 * The items one creation (of a draft: no search entries) writes besides its types, grants,
 * teams and waves: the event, its count, 10 statistics shards and its history's first entry
 * (shared/data/event-creation.ts). A transaction holds 100.
 */
const FIXED_WRITES = 13;
export const MAX_CREATION_ITEMS = 100 - FIXED_WRITES;

const body = newEventBody({
  ticketTypes: MAX_TICKET_TYPES,
  waveTimes: MAX_WAVE_TIMES,
  grants: MAX_GRANTS_PER_TYPE,
  each: EACH,
});
type Body = z.output<typeof body>;

const items = (event: Body) =>
  (event.ticketTypes ?? []).reduce((sum, type) => sum + 1 + new Set(type.grants ?? []).size, 0) +
  (event.teams?.length ?? 0) +
  (event.waveTimes?.length ?? 0) +
  // A waiver and its first version.
  2 * (event.waivers?.length ?? 0);

/** `POST /events`. */
export const NewEventBody = body.check(
  z.refine((event) => !(event.cutOff && event.onSaleDate && event.cutOff <= event.onSaleDate), {
    message: 'must be after onSaleDate',
    path: ['cutOff'],
  }),
  z.refine(
    (event) =>
      (event.waivers ?? []).every(
        (waiver) => waiver.ticketTypeIndex === undefined || waiver.ticketTypeIndex < (event.ticketTypes?.length ?? 0),
      ),
    { message: 'a waiver names a ticket type by its position in ticketTypes', path: ['waivers'] },
  ),
  z.refine((event) => items(event) <= MAX_CREATION_ITEMS, {
    message: `one creation holds at most ${MAX_CREATION_ITEMS} ticket types, grants, teams, wave times and waivers (two each) together: add more afterwards`,
    path: ['ticketTypes'],
  }),
);
export type NewEventBody = z.output<typeof NewEventBody>;

const someField = z.refine<Record<string, unknown>>(
  (patch) => Object.keys(patch).some((key) => key !== 'version'),
  'name at least one field to change',
);

/** `PATCH /events/{id}`. */
export const EventPatchBody = eventPatchBody().check(someField);
export type EventPatchBody = z.output<typeof EventPatchBody>;

const types = ticketTypeBodies(MAX_GRANTS_PER_TYPE);
/** `POST /events/{id}/ticket-types`. */
export const NewTicketTypeBody = types.create;
export type NewTicketTypeBody = z.output<typeof NewTicketTypeBody>;
/** `PATCH /events/{id}/ticket-types/{typeId}`. */
export const TicketTypePatchBody = types.patch.check(someField);
export type TicketTypePatchBody = z.output<typeof TicketTypePatchBody>;

/** `POST /events/{id}/teams` and `PATCH /events/{id}/teams/{teamId}`: a team is its name. */
export const TeamBody = z.strictObject({ name: name(), version: z.optional(z.int().check(z.positive())) });
export type TeamBody = z.output<typeof TeamBody>;
