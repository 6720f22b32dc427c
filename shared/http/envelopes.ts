import * as z from '../schema.ts';
import type { BulkOutcome, Page } from '../domain/paging.ts';
import type { Reply } from './route.ts';

/**
 * The spec's envelopes, built in one place:
 * - single: `{ count, data }`
 * - data only: `{ data }`, where the spec's route omits `count` (the ticket routes)
 * - paged list: `{ totalCount, count, limit, offset, data }`
 * - the `result=none|id|object` rule of write routes (default `id`).
 * Their schemas, which each route declares as its `response`, are in answers.ts.
 */
export const single = (data: unknown): Reply => ({ body: { count: 1, data } });

export const dataOnly = (data: unknown): Reply => ({ body: { data } });

export const paged = <T>(page: Page<T>): Reply => ({
  body: {
    totalCount: page.totalCount,
    count: page.items.length,
    limit: page.limit,
    offset: page.offset,
    data: page.items,
  },
});

/** `paged` plus the ticket lists' `next` and, when true, `totalCountIsEstimate` (CursorPageAnswer). */
export const cursorPaged = <T>(page: Page<T> & { next: string | null; totalCountIsEstimate: boolean }): Reply => ({
  body: {
    ...(paged(page).body as object),
    next: page.next,
    ...(page.totalCountIsEstimate ? { totalCountIsEstimate: true } : {}),
  },
});

export const ResultFormat = z._default(z.enum(['none', 'id', 'object']), 'id');
export type ResultFormat = z.infer<typeof ResultFormat>;

/** A write's answer in the chosen format: no body, the id only, or the whole object. */
export function asResult(format: ResultFormat, object: { id: number }, status = 200): Reply {
  if (format === 'none') return { status: 204 };
  return { status, body: { count: 1, data: format === 'id' ? object.id : object } };
}

export type BulkStatus = 'ok' | 'error';

/** One entry of a bulk answer: each item succeeds or fails on its own. */
export interface BulkEntry {
  id: number | null;
  status: BulkStatus;
  /** The object, when `result=object` and the item succeeded. */
  object?: unknown;
  error?: string;
}

function bulkEntry(format: ResultFormat, outcome: BulkOutcome<unknown>): BulkEntry {
  if ('error' in outcome) return { id: outcome.id, status: 'error', error: outcome.error };
  return format === 'object'
    ? { id: outcome.id, status: 'ok', object: outcome.object }
    : { id: outcome.id, status: 'ok' };
}

/** A bulk answer: one entry per item in request order, shaped by `result`. */
export const bulk = (format: ResultFormat, outcomes: BulkOutcome<unknown>[]): Reply =>
  format === 'none'
    ? { status: 204 }
    : { body: { count: outcomes.length, data: outcomes.map((outcome) => bulkEntry(format, outcome)) } };
