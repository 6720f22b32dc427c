import * as z from '../schema.ts';

/** Ids are positive whole numbers (the spec's ids are integers), within JavaScript's exact range. */
export const positiveId = z.lazy(() => z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)));
