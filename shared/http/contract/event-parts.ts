/**
 * The contract of the routes that edit an event's parts one at a time (`functions/events/`):
 * ticket types, wave times, attendee questions, waivers, teams, and its history. Each body
 * carries the event `version` the client read (a later one is 409 `stale_version`); each
 * answer is the part as stored. The event itself: event.ts.
 */
import * as z from '../../schema.ts';
import { WAIVER_KINDS } from '../../domain/waivers.ts';
import { count, instant, MAX_WAIVER_TEXT, name, someField, text, version } from '../../domain/event-fields.ts';
import { wholeNumber } from '../paging.ts';

import { MAX_OPTIONS } from '../../domain/event-limits.ts';

const optionList = z
  .array(z.strictObject({ id: z.optional(z.int().check(z.positive())), text: name(200), sku: z.optional(text(100)) }))
  .check(z.maxLength(MAX_OPTIONS, `a question has at most ${MAX_OPTIONS} options`));

/** The ticket types' and teams' bodies, as the use cases take them: in the domain, beside the event's own. */
export { NewTicketTypeBody, TeamBody, TicketTypePatchBody } from '../../domain/event-bodies.ts';

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

/** The ticket type, question and team answers, and an entry of `GET /events/{id}/history`: with their domain types. */
export {
  EventHistoryResource,
  QuestionResource,
  TeamResource,
  TicketTypeResource,
} from '../../domain/event-resource.ts';
