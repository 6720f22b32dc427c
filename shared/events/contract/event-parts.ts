/**
 * The contract of the routes that edit an event's parts one at a time (`functions/events/`):
 * ticket types, wave times, attendee questions, waivers, teams, and its history. Each body
 * carries the event `version` the client read (a later one is 409 `stale_version`); each
 * answer is the part as stored. The event itself: event.ts.
 */
import * as z from '../../schema.ts';
import { wholeNumber } from '../../request-fields.ts';

/** The ticket types' and teams' bodies, as the use cases take them: in the domain, beside the event's own. */
export { NewTicketTypeBody, TeamBody, TicketTypePatchBody } from '../domain/event-bodies.ts';

const eventId = wholeNumber('id', { positive: true });
/** `{id}` and `{waveId}`, `{questionId}`, `{waiverId}`. */
export const PathEventWave = z.lazy(() =>
  z.strictObject({ id: eventId, waveId: wholeNumber('waveId', { positive: true }) }),
);
export const PathEventQuestion = z.lazy(() =>
  z.strictObject({
    id: eventId,
    questionId: wholeNumber('questionId', { positive: true }),
  }),
);
export const PathEventWaiver = z.lazy(() =>
  z.strictObject({ id: eventId, waiverId: wholeNumber('waiverId', { positive: true }) }),
);

/** The waves', questions' and waivers' bodies, as the use cases take them: in the domain, beside the event's own. */
export {
  NewQuestionBody,
  NewWaiverBody,
  NewWaveBody,
  QuestionPatchBody,
  WaiverPatchBody,
  WavePatchBody,
} from '../domain/event-bodies.ts';

/** A wave's and a waiver's answers: their schemas live with the domain types they define. */
export { WaveTimeResource } from '../domain/event.ts';
export { WaiverResource } from '../domain/waivers.ts';

/** `{id}` and `{typeId}` of the ticket-type routes. */
export const PathEventType = z.lazy(() =>
  z.strictObject({
    id: wholeNumber('id', { positive: true }),
    typeId: wholeNumber('typeId', { positive: true }),
  }),
);

/** `{id}` and `{teamId}` of the team routes. */
export const PathEventTeam = z.lazy(() =>
  z.strictObject({
    id: wholeNumber('id', { positive: true }),
    teamId: wholeNumber('teamId', { positive: true }),
  }),
);

/** The ticket type, question and team answers, and an entry of `GET /events/{id}/history`: with their domain types. */
export {
  EventHistoryResource,
  QuestionResource,
  TeamResource,
  TicketTypeResource,
} from '../domain/event-resource.ts';
