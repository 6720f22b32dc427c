/**
 * Order statistics of an event's (or one type's) live tickets by purchase time, so that
 * `GET /ticket`'s purchase range (`eventId` or `typeId` with `purchasedFrom` / `purchasedTo`) has an exact
 * `totalCount` and any `_offset` (shared/lists/purchase-counts.ts keeps and reads them).
 *
 * Purchase times are instants as `toISOString` writes them (`2026-11-26T15:04:05.123Z`, a
 * ticket's `purchasedDate`, fixed when it is made: a transfer's replacement keeps it), so
 * string order is time order and a prefix is a calendar bucket. Three kinds of counts:
 * - a month's (`2026-11`): its tickets, and per day (`d26`);
 * - an hour's (`2026-11-26T15`): its tickets, and per minute (`m04`);
 * - a minute's (`2026-11-26T15:04`): its tickets, and per second (`s05`).
 * The tickets bought before an instant are then: the months before it, its month's days
 * before it, its day's hours before it (read by the day's prefix, at most 24), its hour's
 * minutes before it, its minute's seconds before it, and what its own second holds before
 * it (read from the purchase index when the instant is not a second's start). None of that
 * grows with the event: a second holds what a sale's hot items let through, a few dozen.
 */

/** A bucket's count: its tickets, and theirs per part (`d26` days of a month, `m04` minutes of an hour, `s05` seconds of a minute). */
export interface BucketCount {
  /** The bucket's instant prefix: `2026-11`, `2026-11-26T15`, `2026-11-26T15:04`. */
  bucket: string;
  total: number;
  parts: ReadonlyMap<string, number>;
}

export const monthOf = (instant: string) => instant.slice(0, 7);
export const dayOf = (instant: string) => instant.slice(0, 10);
export const hourOf = (instant: string) => instant.slice(0, 13);
export const minuteOf = (instant: string) => instant.slice(0, 16);
/** The counter of the instant's day in its month's count, its minute in its hour's, its second in its minute's. */
export const dayCounter = (instant: string) => `d${instant.slice(8, 10)}`;
export const minuteCounter = (instant: string) => `m${instant.slice(14, 16)}`;
export const secondCounter = (instant: string) => `s${instant.slice(17, 19)}`;
/** The start of the instant's second. */
export const secondStart = (instant: string) => `${instant.slice(0, 19)}.000Z`;

/**
 * The instant just after `to` (ms precision, as purchase times are): what is bought at or
 * before `to` is before it. Undefined past the year 9999, whose instants no longer sort as
 * strings (`+010000-…`): every purchase is before it.
 */
export function justAfter(to: string): string | undefined {
  const next = new Date(Date.parse(to) + 1).toISOString();
  return next.startsWith('+') ? undefined : next;
}

/** The counts of the buckets before `bucket`, and of its parts before `part`. */
function countedBefore(counts: readonly BucketCount[], bucket: string, part: string): number {
  let before = 0;
  for (const count of counts) {
    if (count.bucket < bucket) before += count.total;
    else if (count.bucket === bucket) for (const [name, n] of count.parts) if (name < part) before += n;
  }
  return before;
}

/**
 * The tickets bought before `instant`: `months` every month count of the event, `hours` the
 * hour counts of the instant's day, `minute` its minute's count (when any), `inSecond` those
 * of its second bought before it.
 */
export function boughtBefore(
  instant: string,
  months: readonly BucketCount[],
  hours: readonly BucketCount[],
  minute: BucketCount | undefined,
  inSecond: number,
): number {
  return (
    countedBefore(months, monthOf(instant), dayCounter(instant)) +
    countedBefore(hours, hourOf(instant), minuteCounter(instant)) +
    countedBefore(minute ? [minute] : [], minuteOf(instant), secondCounter(instant)) +
    inSecond
  );
}

/** The parts of the counts in time order, each named by its own instant prefix (`2026-11-26`, `2026-11-26T15:04`, `2026-11-26T15:04:05`). */
function partsInOrder(counts: readonly BucketCount[], separator: string): [string, number][] {
  return counts
    .flatMap((count) =>
      [...count.parts].map(([name, n]): [string, number] => [`${count.bucket}${separator}${name.slice(1)}`, n]),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The part holding `position` (0-based, of the whole event) given the tickets before the first part, and the tickets before that part. */
function partAt(
  position: number,
  before: number,
  parts: [string, number][],
): { part: string; before: number } | undefined {
  let seen = before;
  for (const [part, n] of parts) {
    if (seen + n > position) return { part, before: seen };
    seen += n;
  }
  // Counts that moved between their reads (a sale meanwhile) may not reach the position.
  return undefined;
}

/** The day (`2026-11-26`) holding the ticket at `position` (0-based, of the whole event), and the tickets before that day. */
export const dayAt = (position: number, months: readonly BucketCount[]) =>
  partAt(position, 0, partsInOrder(months, '-'));

/** The minute (`2026-11-26T15:04`) holding the position, from its day's hour counts and the tickets before that day. */
export const minuteAt = (position: number, dayBefore: number, hours: readonly BucketCount[]) =>
  partAt(position, dayBefore, partsInOrder(hours, ':'));

/** The second (`2026-11-26T15:04:05`) holding the position, from its minute's count and the tickets before that minute. */
export const secondAt = (position: number, minuteBefore: number, minute: BucketCount) =>
  partAt(position, minuteBefore, partsInOrder([minute], ':'));

/**
 * The shards' counts of the same buckets as one count per bucket (totals and parts summed), in
 * bucket order: a holder's counts are kept in STATS_SHARDS shards (shared/lists/purchase-counts.ts).
 */
export function mergedBuckets(shards: readonly (readonly BucketCount[])[]): BucketCount[] {
  const merged = new Map<string, { total: number; parts: Map<string, number> }>();
  for (const count of shards.flat()) {
    const into = merged.get(count.bucket) ?? { total: 0, parts: new Map<string, number>() };
    merged.set(count.bucket, into);
    into.total += count.total;
    for (const [name, n] of count.parts) into.parts.set(name, (into.parts.get(name) ?? 0) + n);
  }
  return [...merged]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([bucket, { total, parts }]) => ({ bucket, total, parts }));
}
