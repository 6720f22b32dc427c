/** What one event may hold (the events routes and createEvent refuse more; its readers read at most this many). */

/** The ticket types an event can hold (createEvent allows at most this many). */
export const MAX_TICKET_TYPES = 50;

/** The wave times an event can hold (createEvent allows at most this many). */
export const MAX_WAVE_TIMES = 50;

/**
 * The other events one ticket type (an access package) may grant entry to. Every ticket
 * change moves one list entry and one statistics counter per granted event inside the
 * ticket's one transaction (100 actions at most), and a transfer moves them for the old
 * and the new ticket: 20 leaves room for the ticket's own items, history, bib, barcode
 * and idempotency record (a transfer passes 100 actions at 45; test/integration/
 * ticket-transfer.test.ts walks the widest package through check-in, transfer and delete).
 */
export const MAX_GRANTS_PER_TYPE = 20;

/** The attendee questions an event asks and the options one question offers (the event item holds them). */
export const MAX_QUESTIONS = 50;
export const MAX_OPTIONS = 50;
/**
 * The questions' share of the event item, in bytes of their JSON (UTF-8): 50 questions of 50 full-length
 * options would pass DynamoDB's 400 KB item limit, so the list as a whole is bounded too.
 */
export const MAX_QUESTIONS_BYTES = 150_000;
export const questionsBytes = (questions: readonly unknown[]): number =>
  new TextEncoder().encode(JSON.stringify(questions)).length;

/** The waivers an event holds (its waivers are one bounded Query). */
export const MAX_WAIVERS = 50;
