import * as z from '../schema.ts';

/** More items than this in one bulk request is a 400: it keeps a request inside Lambda's time and payload limits. */
export const MAX_BULK_ITEMS = 100;

/**
 * The spec's bulk body `{ count, data: [...] }`. Items are validated one by one by the
 * use-case (so one bad item fails alone); here only the envelope and the cap are checked.
 */
export const bulkBody = <T extends z.ZodMiniType>(item: T) =>
  z
    .strictObject({
      count: z.int().check(z.minimum(0)),
      data: z
        .array(item)
        .check(
          z.minLength(1, 'must hold at least one item'),
          z.maxLength(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} items`),
        ),
    })
    .check(
      z.refine((body) => body.count === body.data.length, {
        message: 'count must equal the number of items in data',
        path: ['count'],
      }),
    );
