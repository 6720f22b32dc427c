import * as z from '../schema.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/**
 * Any list's `_offset` at most this (above → 400, never a DynamoDB error): an offset page
 * reads what precedes it. Lists that grow with an event cap it lower and answer a cursor
 * (`GET /tickets`: MAX_TICKET_OFFSET and `_cursor`).
 */
export const MAX_OFFSET = 10_000;

/**
 * The one parser of whole numbers sent as text (path and query values are strings on the
 * wire): at most 15 digits, so the number is exact in JavaScript; `positive` refuses 0.
 */
export const wholeNumber = (name: string, { positive = false } = {}) =>
  z.pipe(
    z.string().check(
      positive
        ? z.regex(/^[1-9]\d{0,14}$/, `${name} must be a positive whole number`)
        : z.regex(/^\d{1,15}$/, `${name} must be a whole number`),
    ),
    z.transform(Number),
  );

/** `_limit` and `_offset` query parameters. */
export const pagingQuery = {
  _limit: z._default(
    z.pipe(wholeNumber('_limit'), z.number().check(z.minimum(1, '_limit must be at least 1'), z.maximum(MAX_LIMIT, `_limit must be at most ${MAX_LIMIT}`))),
    DEFAULT_LIMIT,
  ),
  _offset: z._default(z.pipe(wholeNumber('_offset'), z.number().check(z.maximum(MAX_OFFSET, `_offset must be at most ${MAX_OFFSET}`))), 0),
};

/** Comma-separated whole numbers, e.g. `events=1,2,3`. */
export const idList = (name: string) =>
  z.pipe(
    z.pipe(z.string(), z.transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))),
    z.array(wholeNumber(name)).check(
      z.minLength(1, `${name} must not be empty`),
    ),
  );
