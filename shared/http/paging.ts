import * as z from '../schema.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** A query parameter holding a whole number (query values are strings on the wire). */
const wholeNumber = (name: string, ...checks: z.core.CheckFn<number>[] | z.core.$ZodCheck<number>[]) =>
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\d+$/, `${name} must be a whole number`)), z.transform(Number)),
    z.number().check(...(checks as z.core.$ZodCheck<number>[])),
  );

/** `_limit` and `_offset` query parameters. */
export const pagingQuery = {
  _limit: z._default(
    wholeNumber('_limit', z.minimum(1, '_limit must be at least 1'), z.maximum(MAX_LIMIT, `_limit must be at most ${MAX_LIMIT}`)),
    DEFAULT_LIMIT,
  ),
  _offset: z._default(wholeNumber('_offset'), 0),
};

/** Comma-separated whole numbers, e.g. `events=1,2,3`. */
export const idList = (name: string) =>
  z.pipe(
    z.pipe(z.string(), z.transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))),
    z.array(z.pipe(z.string().check(z.regex(/^\d+$/, `${name} must list whole numbers`)), z.transform(Number))).check(
      z.minLength(1, `${name} must not be empty`),
    ),
  );
