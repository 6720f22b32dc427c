import * as z from '../schema.ts';

/**
 * The success answers as schemas, declared by each route beside its input schemas
 * (`route(key, { ..., response, status })`). Each envelope builder here describes what
 * its runtime twin in envelopes.ts writes. Nothing parses answers per request: the
 * OpenAPI generator documents them and the tests parse real answers with them.
 * Resources live beside their types (shared/domain/*-resource.ts); the two whose types
 * live in data/ (which domain/ may not import) are here, with the auth answers.
 */

const size = () => z.int().check(z.minimum(0));

/** `single`: `{count: 1, data}`. */
export const SingleAnswer = <T extends z.ZodMiniType>(data: T) => z.strictObject({ count: z.literal(1), data });

/** `dataOnly`: `{data}`. */
export const DataAnswer = <T extends z.ZodMiniType>(data: T) => z.strictObject({ data });

/** `paged`: `{totalCount, count, limit, offset, data}`. */
export const PageAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({ totalCount: size(), count: size(), limit: size(), offset: size(), data: z.array(item) });

/**
 * The ticket lists' page (`GET /tickets`, `GET /ticket`): the page envelope plus `next` (the
 * `_cursor` of the following page, null on the last) and, only when true,
 * `totalCountIsEstimate` (the OpenAPI description of GET /tickets).
 */
export const CursorPageAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.extend(PageAnswer(item), { next: z.nullable(z.string()), totalCountIsEstimate: z.optional(z.literal(true)) });

/**
 * `asResult` with `result=id|object`: `{count: 1, data: id}` or `{count: 1, data: object}`.
 * `result=none` answers 204 with no body (the generator documents that alternative).
 */
export const ResultAnswer = <T extends z.ZodMiniType>(object: T) => SingleAnswer(z.union([z.int(), object]));

/**
 * `bulk`: `{count, data: [entry]}`, one entry per item in request order. `object` is the
 * schema of a successful entry's `object` as it appears: wrap it in `z.optional` where
 * it comes only with `result=object`, omit it where entries never carry one.
 * A failed entry echoes the item's id as sent (null when it had none).
 */
export function BulkAnswer<T extends z.ZodMiniType>(object?: T) {
  const ok = z.strictObject({ id: z.int(), status: z.literal('ok'), ...(object ? { object } : {}) });
  const error = z.strictObject({ id: z.nullable(z.number()), status: z.literal('error'), error: z.string() });
  return z.strictObject({ count: size(), data: z.array(z.discriminatedUnion('status', [ok, error])) });
}
