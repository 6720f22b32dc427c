import type { TicketRecord } from '../tickets/domain/ticket.ts';

/**
 * The bounded read of `GET /ticket`'s serving indexes (ticket-list-queries.ts), and the merge
 * of several partitions read at once in one sort order (the update-time shards, a search
 * word's partitions across events).
 */
export interface IndexRead {
  records: TicketRecord[];
  complete: boolean;
  /** Index items read (the tests compare it with what was asked). */
  itemsRead: number;
}

/** Where a read resumes and what it keeps. */
export interface ReadBounds {
  /** The last sort key already answered (the cursor); the read starts after it. */
  after?: string;
  need: number;
  budget: number;
  accept: (record: TicketRecord) => boolean;
}

/** One partition's read: also where it stopped (the sort key of the last item read, accepted or not). */
export type PartRead = IndexRead & { lastSort?: string };

/** The merge: its records in order up to `cut` (undefined when every partition reached its end). */
export type MergedRead = IndexRead & { cut?: string };

/**
 * Partitions read at once, each until `need` accepted records (or its share of the budget),
 * merged by `sortOf`. In the merged order only what precedes the earliest point a partition
 * stopped short (the cut) is surely complete; the partition that stopped there holds `need`
 * records before it, so the prefix is always the whole page. A partition that reaches its
 * end within `need` needs no other read, so the total is exact wherever each partition
 * holds fewer than `need` matches.
 */
export async function mergedRead(
  parts: ((bounds: ReadBounds) => Promise<PartRead>)[],
  bounds: ReadBounds,
  sortOf: (record: TicketRecord) => string,
): Promise<MergedRead> {
  const share = { ...bounds, budget: Math.max(bounds.need, Math.floor(bounds.budget / Math.max(1, parts.length))) };
  const reads = await Promise.all(parts.map((read) => read(share)));
  const cut = reads
    .filter((read) => !read.complete)
    .map((read) => read.lastSort ?? '')
    .sort()[0];
  const records = ordered(
    reads.flatMap((read) => read.records),
    sortOf,
    (sort) => cut === undefined || sort <= cut,
  );
  return { records, complete: cut === undefined, itemsRead: reads.reduce((sum, read) => sum + read.itemsRead, 0), cut };
}

/** The records `keep` admits by their sort key, in `sortOf` order. */
export const ordered = (
  records: TicketRecord[],
  sortOf: (record: TicketRecord) => string,
  keep: (sort: string) => boolean,
): TicketRecord[] =>
  records
    .map((record) => ({ record, sort: sortOf(record) }))
    .filter(({ sort }) => keep(sort))
    .sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0))
    .map(({ record }) => record);
