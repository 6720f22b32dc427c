/**
 * How values a client sends as text become values: whole numbers and ids, instants, comma-separated lists, and the
 * paging parameters. Every contract builds its fields from these, in any layer (the domain's schemas too), so each
 * rule is written once.
 */
import * as z from './schema.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/**
 * A small list's `_offset` at most this (above → 400, never a DynamoDB error): such a page
 * reads what precedes it. The ticket lists start an offset page from their kept positions
 * instead, so theirs goes up to any list's size (`ticketPagingQuery`).
 */
export const MAX_OFFSET = 10_000;
/** The ticket lists' `_offset` bound: past every list's end (an empty last page), still an exact JavaScript number. */
export const MAX_TICKET_LIST_OFFSET = 1_000_000_000;

/** The most digits a whole number sent as text may have: 15 keep it exact in JavaScript. */
export const MAX_DIGITS = 15;

/**
 * The one parser of whole numbers sent as text (path and query values are strings on the
 * wire): at most 15 digits, so the number is exact in JavaScript; `positive` refuses 0.
 * The length is checked first (and alone) so the document states the bound outside the
 * pattern too, which length checks (and the OWASP lint) read without parsing it.
 */
export const wholeNumber = (name: string, { positive = false } = {}) => {
  const message = positive ? `${name} must be a positive whole number` : `${name} must be a whole number`;
  return z.pipe(
    z
      .string()
      .check(
        z.maxLength(MAX_DIGITS, { message, abort: true }),
        z.regex(positive ? /^[1-9]\d{0,14}$/ : /^\d{1,15}$/, message),
      ),
    z.transform(Number),
  );
};

/**
 * An id in a JSON body: a positive whole number, or the same as its digits by `wholeNumber`'s rule ("7", not "07",
 * at most 15 digits). The portal's lists answer some ids as strings (`"id": "7"`, the spec's shapes), and a client
 * sends back what it read; either form parses to the number.
 */
export const bodyId = (name: string) => {
  const message = `${name} must be a positive whole number, or its digits as a string (at most ${MAX_DIGITS})`;
  return z.union([z.int(message).check(z.positive(message)), wholeNumber(name, { positive: true })], {
    error: message,
  });
};

/** `_limit` and `_offset` query parameters (each `z.lazy`: shared/schema.ts says why). */
export const pagingQuery = {
  _limit: z.lazy(() => limitUpTo(MAX_LIMIT, DEFAULT_LIMIT)),
  _offset: z.lazy(() => offsetUpTo(MAX_OFFSET)),
};

/** A `_limit` from 1 to `max`, `byDefault` when absent. */
export function limitUpTo(max: number, byDefault: number) {
  return z._default(
    z.pipe(
      wholeNumber('_limit'),
      z.number().check(z.minimum(1, '_limit must be at least 1'), z.maximum(max, `_limit must be at most ${max}`)),
    ),
    byDefault,
  );
}

/** `GET /tickets` and `GET /ticket`: `_offset` up to any list's end, or `_cursor`: the `next` of the previous page (the OpenAPI description of GET /tickets). */
export const ticketPagingQuery = {
  ...pagingQuery,
  _offset: z.lazy(() => offsetUpTo(MAX_TICKET_LIST_OFFSET)),
  _cursor: z.lazy(() =>
    z.optional(
      z
        .string()
        .check(z.minLength(1, '_cursor must not be empty'), z.maxLength(200, '_cursor must be at most 200 characters')),
    ),
  ),
};

function offsetUpTo(max: number) {
  return z._default(
    z.pipe(wholeNumber('_offset'), z.number().check(z.maximum(max, `_offset must be at most ${max}`))),
    0,
  );
}

/**
 * A comma-separated query value as its trimmed, non-empty parts: `a, b,,c` → `['a', 'b', 'c']`.
 * At most `maxLength` characters, checked before the value is split.
 */
export const commaSeparated = (name: string, maxLength: number) =>
  z.pipe(
    z.string().check(z.maxLength(maxLength, `${name} must be at most ${maxLength} characters`)),
    z.transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  );

/**
 * Comma-separated whole numbers, e.g. `events=1,2,3`, at most `max` of them: a filter's
 * values become one key condition or `IN (...)` each. The text holds at most `max` ids of
 * 15 digits, each with a comma and a space.
 */
export const boundedIdList = (name: string, max: number) =>
  z.pipe(
    commaSeparated(name, max * (MAX_DIGITS + 2)),
    z
      .array(wholeNumber(name))
      .check(z.minLength(1, `${name} must not be empty`), z.maxLength(max, `${name} must list at most ${max} ids`)),
  );

/** `YYYY-MM-DD`, or a date-time to the minute, second or millisecond, with `Z`, an offset or none (UTC). */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Unix seconds up to the year 9999. */
const UNIX_SECONDS = /^\d{1,12}$/;
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * An instant as ISO-8601 UTC (the form the indexes sort by), from ISO-8601 or unix
 * seconds; undefined when it is none. A date alone is the day's first instant in UTC,
 * or its last when it ends a range (`purchasedTo=2026-05-01` includes that day).
 */
export function parseInstant(value: string, end: 'from' | 'to'): string | undefined {
  if (UNIX_SECONDS.test(value)) {
    const ms = Number(value) * 1000;
    return ms <= LAST_INSTANT ? new Date(ms).toISOString() : undefined;
  }
  const parts = ISO_INSTANT.exec(value);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second, zone] = parts;
  // V8 accepts 2026-02-30 (as 2 March): the calendar fields must survive the round trip.
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return undefined;
  if (Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) return undefined;
  if (hour === undefined) return new Date(calendar.getTime() + (end === 'to' ? 86_400_000 - 1 : 0)).toISOString();
  const ms = Date.parse(zone ? value : `${value}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** An instant parameter (`parseInstant`), as ISO-8601 UTC. */
export const instant = (name: string, end: 'from' | 'to') =>
  z.pipe(
    z.string().check(
      z.maxLength(40, `${name} must be an ISO-8601 date or date-time, or unix seconds`),
      z.refine(
        (value) => parseInstant(value, end) !== undefined,
        `${name} must be an ISO-8601 date or date-time, or unix seconds`,
      ),
    ),
    z.transform((value) => parseInstant(value, end)!),
  );
