import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  boughtBefore,
  dayAt,
  dayCounter,
  dayOf,
  hourOf,
  justAfter,
  minuteAt,
  minuteCounter,
  minuteOf,
  monthOf,
  secondAt,
  secondCounter,
  secondStart,
  type BucketCount,
} from '../domain/purchase-counts.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { db, tableName } from './client.ts';
import { countersUpdate } from './counters.ts';
import { keyCondition } from './key-conditions.ts';
import { keys, type Key } from './keys.ts';
import { eventPurchases } from './ticket-list-queries.ts';

/**
 * An event's purchase counts (shared/domain/purchase-counts.ts): per event, items
 * `EVENT#<id>` / `BOUGHT#month#<yyyy-mm>` (`n`, and `d<dd>` per day),
 * `BOUGHT#hour#<yyyy-mm-ddThh>` (`n`, `m<mm>` per minute) and
 * `BOUGHT#minute#<yyyy-mm-ddThh:mm>` (`n`, `s<ss>` per second), moved in the ticket's own
 * transaction when it enters or leaves the event's live tickets (a sale, a delete, a
 * transfer's replacement; a check-in or an edit leaves its purchase time alone, so they
 * cancel out and nothing is written). A sale writes three small items; an order's tickets
 * share them. During a rush they are hot items, as the type's `sold` count and the list's
 * current block already are; transactWrite retries the conflicts. `BOUGHT#month#kept`
 * marks an event whose counts hold every live ticket: written with the event, or by
 * bin/maintenance/backfill-list-positions.ts for one made before them. Without it a
 * purchase range is read as before (bounded, its total flagged).
 */

/** The count items a ticket bought at `bought` is counted in (its month's, hour's and minute's), each with its part's counter. */
export const purchaseCounters = (eventId: number, bought: string): [Key, string][] => [
  [keys.purchaseMonth(eventId, monthOf(bought)), dayCounter(bought)],
  [keys.purchaseHour(eventId, hourOf(bought)), minuteCounter(bought)],
  [keys.purchaseMinute(eventId, minuteOf(bought)), secondCounter(bought)],
];

/** Accumulates the purchase-count moves of one transaction: one Update per touched month, hour and minute. */
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
    for (const [key, counter] of purchaseCounters(record.eventId, record.purchasedDate ?? record.created))
      this.add(key, counter, delta);
  }

  actions() {
    return [...this.items.values()].flatMap(
      ({ key, counters }) => countersUpdate(key, 'PurchaseCount', counters) ?? [],
    );
  }
}

type Item = Record<string, unknown>;

/** A count item as a bucket: its sort key after `prefix` (`BOUGHT#<kind>#`), `n`, and its parts (`d`, `m` or `s` and two digits). */
const bucketOf = (item: Item, prefix: string, part: string): BucketCount => ({
  bucket: String(item.SK).slice(prefix.length),
  total: Number(item.n ?? 0),
  parts: new Map(
    Object.entries(item)
      .filter(([name]) => name.length === 3 && name.startsWith(part))
      .map(([name, n]) => [name, Number(n)]),
  ),
});

/** Month counts an event may have (a century of sales): the bound of their Query. */
const MAX_MONTHS = 1200;

/** Whether the event's counts are kept, and its month counts: one Query. */
async function readPurchaseMonths(eventId: number): Promise<{ kept: boolean; months: BucketCount[] }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.purchaseMonthsPrefix }),
      Limit: MAX_MONTHS + 1,
    }),
  );
  const mark = keys.purchaseCountsKept(eventId).SK;
  return {
    kept: Items.some((item) => item.SK === mark),
    months: Items.filter((item) => item.SK !== mark).map((item) => bucketOf(item, keys.purchaseMonthsPrefix, 'd')),
  };
}

/** The hour counts of one day (`2026-11-26`): one Query of at most 24 items. */
async function readPurchaseHours(eventId: number, day: string): Promise<BucketCount[]> {
  const prefix = keys.purchaseHoursPrefix(day);
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: prefix }),
      Limit: 24,
    }),
  );
  return Items.map((item) => bucketOf(item, keys.purchaseHour(eventId, '').SK, 'm'));
}

/** One minute's count (`2026-11-26T15:04`), when it has one: one GetItem. */
async function readPurchaseMinute(eventId: number, minute: string): Promise<BucketCount | undefined> {
  const key = keys.purchaseMinute(eventId, minute);
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key }));
  return Item ? bucketOf(Item, keys.purchaseMinute(eventId, '').SK, 's') : undefined;
}

/**
 * The event's live tickets bought at or after `from` and before `before` (within one
 * second), counted from the purchase index; undefined when more than `atMost` (a second of
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
        ...keyCondition(keys.eventPurchases(eventId), {
          // Every id at `from`, none at `before`.
          between: [keys.timeSortBound(from, 'first'), keys.timeSortBound(before, 'first')],
        }),
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

/** The tickets bought before `instant` (undefined: its second holds more than `atMost` before it). */
async function boughtBeforeInstant(
  eventId: number,
  instant: string,
  months: readonly BucketCount[],
  atMost: number,
): Promise<number | undefined> {
  const [hours, minute, inSecond] = await Promise.all([
    readPurchaseHours(eventId, dayOf(instant)),
    readPurchaseMinute(eventId, minuteOf(instant)),
    countWithin(eventId, secondStart(instant), instant, atMost),
  ]);
  return inSecond === undefined ? undefined : boughtBefore(instant, months, hours, minute, inSecond);
}

/** Where a purchase range lies among the event's live tickets: the ones before it and the ones in it. */
export interface PurchaseSpan {
  before: number;
  total: number;
  months: BucketCount[];
}

/**
 * The event's live tickets bought within [from, to] (either open), exactly, and how many
 * were bought before `from`; undefined when the counts are not kept for the event or an
 * edge second holds more than `atMost` tickets before its bound. Reads: the month counts,
 * then per bound its day's hour counts, its minute's count and, when the bound is not a
 * second's start, its second's tickets before it (Select COUNT), all at once.
 */
export async function purchaseSpan(
  eventId: number,
  range: { from?: string; to?: string },
  atMost: number,
): Promise<PurchaseSpan | undefined> {
  const { kept, months } = await readPurchaseMonths(eventId);
  if (!kept) return undefined;
  const all = months.reduce((sum, count) => sum + count.total, 0);
  const end = range.to === undefined ? undefined : justAfter(range.to);
  const [before, through] = await Promise.all([
    range.from === undefined ? 0 : boughtBeforeInstant(eventId, range.from, months, atMost),
    end === undefined ? all : boughtBeforeInstant(eventId, end, months, atMost),
  ]);
  if (before === undefined || through === undefined) return undefined;
  return { before, total: Math.max(0, through - before), months };
}

/**
 * The live tickets at positions `position`… of the event (0-based, in purchase order), at
 * most `count` and none bought after `to`: the day, minute and second found from the
 * counts, then the second's tickets read from its start, the ones before the position
 * skipped (undefined when that is more than `atMost`, a second of a bulk load, or the counts
 * moved meanwhile). `more`: tickets follow the last one.
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
  const minute = day && minuteAt(position, day.before, await readPurchaseHours(eventId, day.part));
  const minuteCount = minute && (await readPurchaseMinute(eventId, minute.part));
  const second = minute && minuteCount && secondAt(position, minute.before, minuteCount);
  if (!second || position - second.before > atMost) return undefined;
  const skip = position - second.before;
  // Read as the served list reads a purchase range, from the second's start: the skipped few, then the page.
  const need = skip + count + 1;
  const read = await eventPurchases(
    eventId,
    { from: secondStart(second.part), to },
    { need, budget: need, accept: () => true },
  );
  return { records: read.records.slice(skip, skip + count), more: read.records.length > skip + count };
}
