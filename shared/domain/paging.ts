/** One page of a list: the items at `offset`, at most `limit` of them, out of `totalCount`. */
export interface Page<T> {
  totalCount: number;
  limit: number;
  offset: number;
  items: T[];
}

/**
 * The outcome of one item of a bulk operation: each item succeeds or fails on its own.
 * `id` is null when the item failed before it had one (an invalid create).
 */
export type BulkOutcome<T> = { id: number | null; object: T } | { id: number | null; error: string };
