import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  MAX_QUESTIONS_BYTES,
  MAX_WAIVERS,
  MAX_WAVE_TIMES,
} from '#shared/events/domain/event';
import type { Entries } from './common.ts';

/**
 * The `events` tag's routes for an event's parts, one at a time: wave times, attendee
 * questions, waivers, and a team's removal. Each change moves the event's `version` and is
 * recorded in its history; a part that live tickets use stays (409 `in_use` with
 * `tickets`, their count, read from the event's kept counters).
 */
const inUse =
  'A part that live tickets use is not removed: 409 `in_use`, its `tickets` the count (read from the counters the ticket writes keep, not from the tickets).';

export const EVENT_PARTS = {
  'DELETE /events/{id}/teams/{teamId}': {
    summary: 'Remove a team',
    description: `Only a team no live ticket names. ${inUse}`,
    parameters: { teamId: 'The team id (a positive integer).' },
    conflicts: ['stale_version', 'in_use'],
  },
  'POST /events/{id}/wave-times': {
    summary: 'Add a wave time',
    description: `At most ${MAX_WAVE_TIMES} an event (409 \`too_many_wave_times\`). \`startTime\` is ISO-8601 with an offset, stored in UTC; the portal answers it in the event's time zone.`,
    conflicts: ['stale_version', 'too_many_wave_times'],
    example: { name: 'Wave A', startTime: '2027-04-25T09:00:00+01:00', capacity: 500 },
  },
  'PATCH /events/{id}/wave-times/{waveId}': {
    summary: 'Edit a wave time',
    description:
      'Only the fields sent change. Tickets name their wave by id: the new name and start show at once in the portal (`GET /my-account/wave-time/{eventId}`) and on tickets.',
    parameters: { waveId: 'The wave time id (a positive integer).' },
    conflicts: ['stale_version'],
    example: { name: 'Wave A (elite)' },
  },
  'DELETE /events/{id}/wave-times/{waveId}': {
    summary: 'Remove a wave time',
    description: `Only a wave no live ticket has. ${inUse}`,
    parameters: { waveId: 'The wave time id (a positive integer).' },
    conflicts: ['stale_version', 'in_use'],
  },
  'POST /events/{id}/questions': {
    summary: 'Add an attendee question',
    description: `At most ${MAX_QUESTIONS} an event (409 \`too_many_questions\`), ${MAX_OPTIONS} options a question, and the questions together at most ${MAX_QUESTIONS_BYTES} bytes of JSON, which the event's item holds (409 \`questions_too_large\`). No options: a free-text question.`,
    conflicts: ['stale_version', 'too_many_questions', 'questions_too_large'],
    example: { text: 'T-shirt size', required: true, options: [{ text: 'M' }, { text: 'L', sku: 'TS-L' }] },
  },
  'PATCH /events/{id}/questions/{questionId}': {
    summary: 'Edit an attendee question',
    description:
      "Only the fields sent change; `options` is the whole new list (an option named by `id` is kept and may be renamed, one without `id` is added). Answers name questions and options by id, so a rename shows at once. Which tickets answered is not counted, so an option is removed only while the event has no live ticket (409 `in_use` with the event's ticket count). The questions together stay within what the event's item holds (409 `questions_too_large`).",
    parameters: { questionId: 'The question id (a positive integer).' },
    conflicts: ['stale_version', 'in_use', 'questions_too_large'],
    example: { text: 'T-shirt size (unisex)' },
  },
  'DELETE /events/{id}/questions/{questionId}': {
    summary: 'Remove an attendee question',
    description:
      "Only while the event has no live ticket (which tickets answered is not counted): 409 `in_use` with the event's ticket count.",
    parameters: { questionId: 'The question id (a positive integer).' },
    conflicts: ['stale_version', 'in_use'],
  },
  'POST /events/{id}/waivers': {
    summary: 'Add a waiver',
    description: `For every ticket of the event (\`ticketTypeId\` omitted or null) or one type's (a type of this event, else 400 naming it). \`kind\` \`standard\` (signed before) or \`day-of\` (at the gate). At most ${MAX_WAIVERS} an event (409 \`too_many_waivers\`).`,
    conflicts: ['stale_version', 'too_many_waivers'],
    example: { title: 'Medical declaration', kind: 'standard', text: 'I am fit to run.' },
  },
  'PATCH /events/{id}/waivers/{waiverId}': {
    summary: 'Edit a waiver',
    description:
      'Only the fields sent change; a new `text` publishes a new version (`versionHash`), and tickets that signed an earlier one stay signed. Tickets and the gate read the new title at once.',
    parameters: { waiverId: 'The waiver id (a positive integer).' },
    conflicts: ['stale_version'],
    example: { title: 'Medical declaration (2027)' },
  },
  'DELETE /events/{id}/waivers/{waiverId}': {
    summary: 'Remove a waiver',
    description: `Only while no live ticket must sign it (an event-wide waiver: the event's tickets; a type's: that type's), which covers every ticket that signed it. ${inUse}`,
    parameters: { waiverId: 'The waiver id (a positive integer).' },
    conflicts: ['stale_version', 'in_use'],
  },
} satisfies Entries;
