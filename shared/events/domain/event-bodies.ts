import * as z from '../../schema.ts';
import {
  MAX_GRANTS_PER_TYPE,
  MAX_OPTIONS,
  MAX_QUESTIONS_BYTES,
  MAX_TICKET_TYPES,
  MAX_WAVE_TIMES,
  questionsBytes,
} from './event.ts';
import {
  count,
  currency,
  holdCapFields,
  instant,
  MAX_WAIVER_TEXT,
  name,
  optional,
  ordering,
  picture,
  pricingFields,
  reservationMinutes,
  someField,
  text,
  ticketTypeFields,
  timezone,
  version,
} from './event-fields.ts';
import { WAIVER_KINDS } from './waivers.ts';

/**
 * What the events routes accept (the spec's event entry fields, strict: unknown fields are a 400, each bound named,
 * the counts' limits those of event.ts), as schemas, and the types the use cases take, inferred from them
 * (parsed: instants in UTC ISO, names trimmed). The routes declare these (contract/event.ts, event-parts.ts).
 */

/** The listing fields (each optional in a create, defaults in shared/events/domain/event.ts DEFAULT_LISTING). */
const listing = () => ({
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
    ...optional(listing()),
    ...optional(holdCapFields()),
    ...optional(pricingFields()),
    ticketTypes: z.optional(
      z
        .array(
          z.strictObject({
            name: type.name,
            price: type.price,
            tax: z.optional(type.tax),
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
        .check(
          z.maxLength(limits.each, `an event has at most ${limits.each} questions`),
          z.refine(
            (questions) => questionsBytes(questions) <= MAX_QUESTIONS_BYTES,
            `the questions take at most ${MAX_QUESTIONS_BYTES} bytes`,
          ),
        ),
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
    ...optional(listing()),
    published: z.optional(z.boolean()),
    reservationMinutes: z.optional(reservationMinutes()),
    ...optional(holdCapFields()),
    ...optional(pricingFields()),
    /** The version the client read: a later one is 409 `stale_version`. */
    version: z.optional(z.int().check(z.positive())),
  });
}

/** Questions, options and teams a creation may carry (its one transaction holds at most 100 writes). */
const EACH = 50;
/**
 * The items one creation (of a draft: no search entries) writes besides its types and their
 * stock, grants, teams and waves: the event, its count, 16 statistics shards (shared/tickets/data/stats-shards.ts
 * STATS_SHARDS) and its history's first entry (shared/events/data/event-creation.ts). A transaction holds 100.
 */
const FIXED_WRITES = 19;
export const MAX_CREATION_ITEMS = 100 - FIXED_WRITES;

const LIMITS: EventLimits = {
  ticketTypes: MAX_TICKET_TYPES,
  waveTimes: MAX_WAVE_TIMES,
  grants: MAX_GRANTS_PER_TYPE,
  each: EACH,
};
type Body = z.output<ReturnType<typeof newEventBody>>;

const items = (event: Body) =>
  // A type, its first stock item (more shards where room is left: event-creation.ts) and its grants.
  (event.ticketTypes ?? []).reduce((sum, type) => sum + 2 + new Set(type.grants ?? []).size, 0) +
  (event.teams?.length ?? 0) +
  (event.waveTimes?.length ?? 0) +
  // A waiver and its first version.
  2 * (event.waivers?.length ?? 0);

/** `POST /events`. */
export const NewEventBody = z.lazy(() =>
  newEventBody(LIMITS).check(
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
      message: `one creation holds at most ${MAX_CREATION_ITEMS} ticket types (two each, with their stock), grants, teams, wave times and waivers (two each) together: add more afterwards`,
      path: ['ticketTypes'],
    }),
  ),
);
export type NewEventBody = z.output<typeof NewEventBody>;

/** `PATCH /events/{id}`. */
export const EventPatchBody = z.lazy(() => eventPatchBody().check(someField));
export type EventPatchBody = z.output<typeof EventPatchBody>;

function ticketTypeBodies(maxGrants: number) {
  const type = ticketTypeFields(maxGrants);
  return {
    create: z.strictObject({
      name: type.name,
      price: type.price,
      tax: z.optional(type.tax),
      total: type.total,
      description: z._default(type.description, ''),
      ordering: z.optional(type.ordering),
      grants: z._default(type.grants, []),
    }),
    patch: z.strictObject({ ...optional(type), version: z.optional(z.int().check(z.positive())) }),
  };
}

/** `POST /events/{id}/ticket-types`. */
export const NewTicketTypeBody = z.lazy(() => ticketTypeBodies(MAX_GRANTS_PER_TYPE).create);
export type NewTicketTypeBody = z.output<typeof NewTicketTypeBody>;
/** `PATCH /events/{id}/ticket-types/{typeId}`. */
export const TicketTypePatchBody = z.lazy(() => ticketTypeBodies(MAX_GRANTS_PER_TYPE).patch.check(someField));
export type TicketTypePatchBody = z.output<typeof TicketTypePatchBody>;

/** `POST /events/{id}/teams` and `PATCH /events/{id}/teams/{teamId}`: a team is its name. */
export const TeamBody = z.lazy(() =>
  z.strictObject({ name: name(), version: z.optional(z.int().check(z.positive())) }),
);
export type TeamBody = z.output<typeof TeamBody>;

const optionList = z.lazy(() =>
  z
    .array(z.strictObject({ id: z.optional(z.int().check(z.positive())), text: name(200), sku: z.optional(text(100)) }))
    .check(z.maxLength(MAX_OPTIONS, `a question has at most ${MAX_OPTIONS} options`)),
);

export const NewWaveBody = z.lazy(() =>
  z.strictObject({ name: name(), startTime: instant(), capacity: count(), version }),
);
export type NewWaveBody = z.output<typeof NewWaveBody>;
export const WavePatchBody = z.lazy(() =>
  z
    .strictObject({
      name: z.optional(name()),
      startTime: z.optional(instant()),
      capacity: z.optional(count()),
      version,
    })
    .check(someField),
);
export type WavePatchBody = z.output<typeof WavePatchBody>;

/** A question's `options` in a patch is its whole new list: an option named by `id` is kept (renamed), one without is added. */
export const NewQuestionBody = z.lazy(() =>
  z.strictObject({
    text: name(500),
    required: z.optional(z.boolean()),
    options: z.optional(optionList),
    version,
  }),
);
export type NewQuestionBody = z.output<typeof NewQuestionBody>;
export const QuestionPatchBody = z.lazy(() =>
  z
    .strictObject({
      text: z.optional(name(500)),
      required: z.optional(z.boolean()),
      options: z.optional(optionList),
      version,
    })
    .check(someField),
);
export type QuestionPatchBody = z.output<typeof QuestionPatchBody>;

/** A new `text` publishes a new version; tickets that signed an earlier one stay signed. */
export const NewWaiverBody = z.lazy(() =>
  z.strictObject({
    title: name(),
    kind: z.optional(z.enum(WAIVER_KINDS, `must be one of ${WAIVER_KINDS.join(', ')}`)),
    ticketTypeId: z.optional(z.nullable(z.int().check(z.positive('must be a ticket type id')))),
    text: name(MAX_WAIVER_TEXT),
    version,
  }),
);
export type NewWaiverBody = z.output<typeof NewWaiverBody>;
export const WaiverPatchBody = z.lazy(() =>
  z
    .strictObject({
      title: z.optional(name()),
      kind: z.optional(z.enum(WAIVER_KINDS, `must be one of ${WAIVER_KINDS.join(', ')}`)),
      text: z.optional(name(MAX_WAIVER_TEXT)),
      version,
    })
    .check(someField),
);
export type WaiverPatchBody = z.output<typeof WaiverPatchBody>;
