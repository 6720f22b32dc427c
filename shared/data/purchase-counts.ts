import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  boughtBefore,
  dayAt,
  dayCounter,
  dayOf,
  hourOf,
  justAfter,
  minuteAt,
  minuteCounter,
  minuteStart,
  monthOf,
  type HourCount,
  type MonthCount,
} from '../domain/purchase-counts.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { db, tableName } from './client.ts';
import { countersUpdate } from './counters.ts';
import { keyCondition } from './key-conditions.ts';
import { keys, type Key } from './keys.ts';
import { listedRecords } from './ticket-records.ts';

/**
 * An event's purchase counts (shared/domain/purchase-counts.ts): per event, items
 * `EVENT#<id>` / `BOUGHT#month#<yyyy-mm>` (`n`, and `d<dd>` per day) and
 * `BOUGHT#hour#<yyyy-mm-ddThh>` (`n`, and `m<mm>` per minute), moved in the ticket's own
 * transaction when it enters or leaves the event's live tickets (a sale, a delete, a
 * transfer to another event; a check-in or an edit leaves its purchase time alone, so they
 * cancel out and nothing is written). A sale writes two small items; an order's tickets
 * share them. During a rush the hour's and the month's items are hot, as the type's `sold`
 * count and the list's current block already are; transactWrite retries the conflicts.
 * `BOUGHT#kept` marks an event whose counts hold every live ticket: written with
 * the event, or by bin/maintenance/backfill-list-positions.ts for one made before them.
 * Without it a purchase range is read as before (bounded, its total flagged).
 */

/** Accumulates the purchase-count moves of one transaction: one Update per touched month and hour. */
export class PurchaseDelta {
  private readonly items = new Map<string, { key: Key; counters: Map<string, number> }>();

  private add(key: Key, counter: string, delta: number): void {
    const id = `${key.PK}/${key.SK}`;
    const entry = this.items.get(id) ?? { key, counters: new Map<string, number>() };
    this.items.set(id, entry);
    for (const name of ['n', counter]) entry.counters.set(name, (entry.counters.get(name) ?? 0) + delta);
  }

  /** A live ticket enters (+1) or leaves (-1) its event's purchase counts. */
  listedTicket(record: TicketRecord, delta: number): void {
    const bought = record.purchasedDate ?? record.created;
    this.add(keys.purchaseMonth(record.eventId, monthOf(bought)), dayCounter(bought), delta);
    this.add(keys.purchaseHour(record.eventId, hourOf(bought)), minuteCounter(bought), delta);
  }

  actions() {
    return [...this.items.values()].flatMap(
      ({ key, counters }) => countersUpdate(key, 'PurchaseCount', counters) ?? [],
    );
  }
}

type Item = Record<string, unknown>;

/** The counters of an item whose names start with `prefix` (`d`, `m`), by the rest of the name. */
const countersOf = (item: Item, prefix: string): Map<string, number> =>
  new Map(
    Object.entries(item)
      .filter(([name]) => name.length === 3 && name.startsWith(prefix))
      .map(([name, n]) => [name, Number(n)]),
  );

/** Month counts an event may have (a century of sales): the bound of their Query. */
const MAX_MONTHS = 1200;

/** Whether the event's counts are kept, and its month counts: one Query. */
export async function readPurchaseMonths(eventId: number): Promise<{ kept: boolean; months: MonthCount[] }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { between: keys.purchaseMonthsRange }),
      Limit: MAX_MONTHS + 1,
    }),
  );
  const kept = Items.some((item) => item.SK === keys.purchaseCountsKept(eventId).SK);
  const months = Items.filter((item) => item.SK !== keys.purchaseCountsKept(eventId).SK).map((item) => ({
    month: String(item.SK).slice(-7),
    total: Number(item.n ?? 0),
    days: countersOf(item, 'd'),
  }));
  return { kept, months };
}

/** The hour counts of one day (`2026-11-26`): one Query of at most 24 items. */
export async function readPurchaseHours(eventId: number, day: string): Promise<HourCount[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.purchaseHoursPrefix(day) }),
      Limit: 24,
    }),
  );
  return Items.map((item) => ({
    hour: String(item.SK).slice(-13),
    total: Number(item.n ?? 0),
    minutes: countersOf(item, 'm'),
  }));
}

/** The purchase-index sort key bounds of the instants in [from, before): every id at `from`, none at `before`. */
const sortsWithin = (from: string, before: string) =>
  [keys.timeSortBound(from, 'first'), keys.timeSortBound(before, 'first')] as const;

/**
 * The event's live tickets bought at or after `from` and before `before` (within one
 * minute), counted from the purchase index; undefined when more than `atMost` (a minute of
 * a bulk load), which is not read further.
 */
async function countWithin(eventId: number, from: string, before: string, atMost: number): Promise<number | undefined> {
  if (from >= before) return 0;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(keys.eventPurchases(eventId), { between: sortsWithin(from, before) }),
        Select: 'COUNT',
        Limit: atMost + 1 - count,
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey && count <= atMost);
  return count > atMost ? undefined : count;
}

/** The tickets bought before `instant` (undefined: its minute holds more than `atMost` before it). */
async function boughtBeforeInstant(
  eventId: number,
  instant: string,
  months: readonly MonthCount[],
  atMost: number,
): Promise<number | undefined> {
  const [hours, inMinute] = await Promise.all([
    readPurchaseHours(eventId, dayOf(instant)),
    countWithin(eventId, minuteStart(instant), instant, atMost),
  ]);
  return inMinute === undefined ? undefined : boughtBefore(instant, months, hours, inMinute);
}

/** Where a purchase range lies among the event's live tickets: the ones before it and the ones in it. */
export interface PurchaseSpan {
  before: number;
  total: number;
  months: MonthCount[];
}

/**
 * The event's live tickets bought within [from, to] (either open), exactly, and how many
 * were bought before `from`; undefined when the counts are not kept for the event or an
 * edge minute holds more than `atMost` tickets before its bound. Reads: the month counts,
 * then per bound its day's hour counts and, when the bound is not a minute's start, its
 * minute's tickets before it (Select COUNT), all at once.
 */
export async function purchaseSpan(
  eventId: number,
  range: { from?: string; to?: string },
  atMost: number,
): Promise<PurchaseSpan | undefined> {
  const { kept, months } = await readPurchaseMonths(eventId);
  if (!kept) return undefined;
  const all = months.reduce((sum, count) => sum + count.total, 0);
  const [before, through] = await Promise.all([
    range.from === undefined ? 0 : boughtBeforeInstant(eventId, range.from, months, atMost),
    range.to === undefined ? all : boughtBeforeInstant(eventId, justAfter(range.to), months, atMost),
  ]);
  if (before === undefined || through === undefined) return undefined;
  return { before, total: Math.max(0, through - before), months };
}

/**
 * The live tickets at positions `position`… of the event (0-based, in purchase order), at
 * most `count` and none bought after `to`: the day and the minute found from the counts,
 * then the minute's tickets read from its start, the ones before the position skipped
 * (undefined when that is more than `atMost`, a minute of a bulk load). `more`: tickets
 * follow the last one.
 */
export async function purchasesAt(
  eventId: number,
  span: PurchaseSpan,
  position: number,
  count: number,
  to: string | undefined,
  atMost: number,
): Promise<{ records: TicketRecord[]; more: boolean } | undefined> {
  const day = dayAt(position, span.months);
  const minute = day && minuteAt(position, day.before, await readPurchaseHours(eventId, day.day));
  // Counts that moved between the reads (a sale meanwhile): from the range's start, as without counts.
  if (!minute || minute.skip > atMost) return undefined;
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  const range = keys.timeRange({ from: minute.start, to });
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(keys.eventPurchases(eventId), range),
        Limit: minute.skip + count + 1 - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < minute.skip + count + 1);
  const page = items.slice(minute.skip, minute.skip + count);
  return { records: await listedRecords(page), more: items.length > minute.skip + count };
}
