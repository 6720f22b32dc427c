/**
 * The contract of the routes that edit an event's parts one at a time (`functions/events/`):
 * ticket types, wave times, attendee questions, waivers, teams, and its history. Each body
 * carries the event `version` the client read (a later one is 409 `stale_version`); each
 * answer is the part as stored. The event itself: event.ts.
 */
import * as z from '../../schema.ts';
import type {
  NewTicketTypeBody as NewTicketType,
  TeamBody as Team,
  TicketTypePatchBody as TicketTypePatch,
} from '../../domain/event-bodies.ts';
import { EVENT_HISTORY_ACTIONS, type EventHistoryEntry } from '../../domain/event-resource.ts';
import { WAIVER_KINDS } from '../../domain/waivers.ts';
import {
  count,
  instant,
  MAX_WAIVER_TEXT,
  name,
  optional,
  someField,
  text,
  ticketTypeFields,
  version,
} from './event-fields.ts';
import { wholeNumber } from '../paging.ts';

import { MAX_GRANTS_PER_TYPE, MAX_OPTIONS } from '../../domain/event-limits.ts';

const optionList = z
  .array(z.strictObject({ id: z.optional(z.int().check(z.positive())), text: name(200), sku: z.optional(text(100)) }))
  .check(z.maxLength(MAX_OPTIONS, `a question has at most ${MAX_OPTIONS} options`));

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

const types = ticketTypeBodies(MAX_GRANTS_PER_TYPE);
/** `POST /events/{id}/ticket-types`. */
export const NewTicketTypeBody = types.create;
export type NewTicketTypeBody = z.output<typeof NewTicketTypeBody>;
true satisfies z.Same<NewTicketTypeBody, NewTicketType>;
/** `PATCH /events/{id}/ticket-types/{typeId}`. */
export const TicketTypePatchBody = types.patch.check(someField);
export type TicketTypePatchBody = z.output<typeof TicketTypePatchBody>;
true satisfies z.Same<TicketTypePatchBody, TicketTypePatch>;

/** `POST /events/{id}/teams` and `PATCH /events/{id}/teams/{teamId}`: a team is its name. */
export const TeamBody = z.strictObject({ name: name(), version: z.optional(z.int().check(z.positive())) });
export type TeamBody = z.output<typeof TeamBody>;
true satisfies z.Same<TeamBody, Team>;

const eventId = wholeNumber('id', { positive: true });
/** `{id}` and `{waveId}`, `{questionId}`, `{waiverId}`. */
export const PathEventWave = z.strictObject({ id: eventId, waveId: wholeNumber('waveId', { positive: true }) });
export const PathEventQuestion = z.strictObject({
  id: eventId,
  questionId: wholeNumber('questionId', { positive: true }),
});
export const PathEventWaiver = z.strictObject({ id: eventId, waiverId: wholeNumber('waiverId', { positive: true }) });

export const NewWaveBody = z.strictObject({ name: name(), startTime: instant(), capacity: count(), version });
export type NewWaveBody = z.output<typeof NewWaveBody>;
export const WavePatchBody = z
  .strictObject({ name: z.optional(name()), startTime: z.optional(instant()), capacity: z.optional(count()), version })
  .check(someField);
export type WavePatchBody = z.output<typeof WavePatchBody>;

/** A question's `options` in a patch is its whole new list: an option named by `id` is kept (renamed), one without is added. */
export const NewQuestionBody = z.strictObject({
  text: name(500),
  required: z.optional(z.boolean()),
  options: z.optional(optionList),
  version,
});
export type NewQuestionBody = z.output<typeof NewQuestionBody>;
export const QuestionPatchBody = z
  .strictObject({
    text: z.optional(name(500)),
    required: z.optional(z.boolean()),
    options: z.optional(optionList),
    version,
  })
  .check(someField);
export type QuestionPatchBody = z.output<typeof QuestionPatchBody>;

/** A new `text` publishes a new version; tickets that signed an earlier one stay signed. */
export const NewWaiverBody = z.strictObject({
  title: name(),
  kind: z.optional(z.enum(WAIVER_KINDS, `must be one of ${WAIVER_KINDS.join(', ')}`)),
  ticketTypeId: z.optional(z.nullable(z.int().check(z.positive('must be a ticket type id')))),
  text: name(MAX_WAIVER_TEXT),
  version,
});
export type NewWaiverBody = z.output<typeof NewWaiverBody>;
export const WaiverPatchBody = z
  .strictObject({
    title: z.optional(name()),
    kind: z.optional(z.enum(WAIVER_KINDS, `must be one of ${WAIVER_KINDS.join(', ')}`)),
    text: z.optional(name(MAX_WAIVER_TEXT)),
    version,
  })
  .check(someField);
export type WaiverPatchBody = z.output<typeof WaiverPatchBody>;

export const WaveTimeResource = z.strictObject({
  id: z.int(),
  eventId: z.int(),
  name: z.string(),
  startTime: z.string(),
  capacity: z.int(),
});
export const QuestionResource = z.strictObject({
  id: z.int(),
  text: z.string(),
  required: z.boolean(),
  options: z.array(z.strictObject({ id: z.int(), text: z.string(), sku: z.optional(z.string()) })),
});
export const WaiverResource = z.strictObject({
  id: z.int(),
  eventId: z.int(),
  ticketTypeId: z.nullable(z.int()),
  title: z.string(),
  kind: z.enum(WAIVER_KINDS),
  versionHash: z.string(),
  versionPublished: z.string(),
  created: z.string(),
});

/** `{id}` and `{typeId}` of the ticket-type routes. */
export const PathEventType = z.strictObject({
  id: wholeNumber('id', { positive: true }),
  typeId: wholeNumber('typeId', { positive: true }),
});

/** `{id}` and `{teamId}` of the team routes. */
export const PathEventTeam = z.strictObject({
  id: wholeNumber('id', { positive: true }),
  teamId: wholeNumber('teamId', { positive: true }),
});

/** A team as the team routes answer it. */
export const TeamResource = z.strictObject({ id: z.int(), eventId: z.int(), name: z.string() });

export const TicketTypeResource = z.strictObject({
  id: z.int(),
  eventId: z.int(),
  name: z.string(),
  description: z.string(),
  ordering: z.int(),
  price: z
    .number()
    .check(z.describe("In the event's `currency`, with no more decimals than it is charged in (EUR 2, JPY 0).")),
  sold: z.int().check(z.describe('Tickets of this type holding a place.')),
  total: z.int().check(z.describe('Its capacity: never below `sold`.')),
  grants: z.array(z.int()).check(z.describe('Other events this type also admits to (an access package).')),
});

/** An entry of `GET /events/{id}/history`. */
export const EventHistoryResource = z.strictObject({
  version: z.int(),
  at: z.iso.datetime(),
  by: z.int().check(z.describe('The administrator who made the change.')),
  action: z.enum(EVENT_HISTORY_ACTIONS),
  changes: z.record(z.string(), z.strictObject({ from: z.unknown(), to: z.unknown() })),
});
true satisfies z.Same<z.output<typeof EventHistoryResource>, EventHistoryEntry>;
