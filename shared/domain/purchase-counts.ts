/**
 * Order statistics of an event's live tickets by purchase time, so that `GET /ticket`'s
 * purchase range (`eventId` with `purchasedFrom` / `purchasedTo`) has an exact
 * `totalCount` and any `_offset` (shared/data/purchase-counts.ts keeps and reads them).
 *
 * Purchase times are instants as `toISOString` writes them (`2026-11-26T15:04:05.123Z`, a
 * ticket's `purchasedDate`, fixed when it is made: a transfer's replacement keeps it), so
 * string order is time order and a prefix is a calendar bucket. Two kinds of counts:
 * - a month's (`2026-11`): its tickets, and per day (`d26`);
 * - an hour's (`2026-11-26T15`): its tickets, and per minute (`m04`).
 * The tickets bought before an instant are then: the months before it, its month's days
 * before it, its day's hours before it (read by the day's prefix, at most 24), its hour's
 * minutes before it, and what its own minute holds before it (read from the purchase index
 * when the instant is not a minute's start). None of that grows with the event.
 */

/** A month's count: its tickets and theirs per day of the month (`01`–`31`). */
export interface MonthCount {
  month: string;
  total: number;
  days: ReadonlyMap<string, number>;
}

/** An hour's count: its tickets and theirs per minute (`00`–`59`). */
export interface HourCount {
  hour: string;
  total: number;
  minutes: ReadonlyMap<string, number>;
}

export const monthOf = (instant: string) => instant.slice(0, 7);
export const dayOf = (instant: string) => instant.slice(0, 10);
export const hourOf = (instant: string) => instant.slice(0, 13);
/** The counter of the instant's day in its month's count, and of its minute in its hour's. */
export const dayCounter = (instant: string) => `d${instant.slice(8, 10)}`;
export const minuteCounter = (instant: string) => `m${instant.slice(14, 16)}`;
/** The start of the instant's minute. */
export const minuteStart = (instant: string) => `${instant.slice(0, 16)}:00.000Z`;

/** The instant just after `to` (ms precision, as purchase times are): what is bought at or before `to` is before it. */
export const justAfter = (to: string) => new Date(Date.parse(to) + 1).toISOString();

const sumWhere = (counts: ReadonlyMap<string, number>, below: string) =>
  [...counts].reduce((sum, [name, n]) => (name < below ? sum + n : sum), 0);

/**
 * The tickets bought before `instant`: `months` every month count of the event, `hours` the
 * hour counts of the instant's day, `inMinute` those of its minute bought before it.
 */
export function boughtBefore(
  instant: string,
  months: readonly MonthCount[],
  hours: readonly HourCount[],
  inMinute: number,
): number {
  const month = monthOf(instant);
  const hour = hourOf(instant);
  let before = inMinute;
  for (const count of months) {
    if (count.month < month) before += count.total;
    else if (count.month === month) before += sumWhere(count.days, dayCounter(instant));
  }
  for (const count of hours) {
    if (count.hour < hour) before += count.total;
    else if (count.hour === hour) before += sumWhere(count.minutes, minuteCounter(instant));
  }
  return before;
}

/** The day (`2026-11-26`) holding the ticket at `position` (0-based, of the whole event), and how many come before that day. */
export function dayAt(position: number, months: readonly MonthCount[]): { day: string; before: number } | undefined {
  let before = 0;
  for (const count of [...months].sort((a, b) => (a.month < b.month ? -1 : 1))) {
    if (before + count.total <= position) {
      before += count.total;
      continue;
    }
    for (const [name, n] of [...count.days].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (before + n > position) return { day: `${count.month}-${name.slice(1)}`, before };
      before += n;
    }
    return undefined;
  }
  return undefined;
}

/**
 * The minute holding the ticket at `position` (0-based, of the whole event) given its day's
 * hour counts and the tickets before that day: the minute's start, and how many of the
 * minute's tickets come before the position.
 */
export function minuteAt(
  position: number,
  dayBefore: number,
  hours: readonly HourCount[],
): { start: string; skip: number } | undefined {
  let before = dayBefore;
  for (const count of [...hours].sort((a, b) => (a.hour < b.hour ? -1 : 1))) {
    if (before + count.total <= position) {
      before += count.total;
      continue;
    }
    for (const [name, n] of [...count.minutes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (before + n > position) return { start: `${count.hour}:${name.slice(1)}:00.000Z`, skip: position - before };
      before += n;
    }
    return undefined;
  }
  return undefined;
}
