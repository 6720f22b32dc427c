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
  mergedBuckets,
  minuteOf,
  monthOf,
  secondAt,
  secondCounter,
  secondStart,
  type BucketCount,
} from './purchase-count-plan.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { batchGet, db, tableName } from '../data/client.ts';
import { countersUpdate } from '../data/counters.ts';
import { keyCondition } from '../data/key-conditions.ts';
import { INDEX_SHARDS, keys, type Key, type PurchaseHolder } from '../data/keys.ts';
import { shardOf, STATS_SHARDS } from '../tickets/data/stats-shards.ts';
import { eventPurchases, typePurchases } from './ticket-list-queries.ts';

/**
 * Purchase counts (shared/lists/purchase-count-plan.ts) of an event and of each of its ticket
 * types, each kept in STATS_SHARDS shards: a ticket is counted in its id's shard (`shardOf`), in
 * that shard's partition (`TICKET_COUNTS#<eventId>#<shard>`, beside its statistics shard), items
 * `BOUGHT#month#<yyyy-mm>` (`n`, and `d<dd>` per day), `BOUGHT#hour#<yyyy-mm-ddThh>` (`n`,
 * `m<mm>` per minute) and `BOUGHT#minute#<yyyy-mm-ddThh:mm>` (`n`, `s<ss>` per second), a type's
 * under `BOUGHT#type#<typeId:10>#`, moved in the ticket's own transaction when it enters or leaves
 * the event's live tickets (a sale, a delete, a transfer's replacement; a check-in or an edit
 * leaves its purchase time alone, so they cancel out and nothing is written). A sale writes six
 * small items of its shard (the event's three, its type's three). Why shards: every sale of a
 * minute would otherwise move the same minute, hour and month items, 300 transactions a second
 * at an on-sale of 300 orders, where one item takes about 50; with 16 shards each takes 600 / 16
 * tickets a second. A read sums the shards' buckets (`mergedBuckets`): one Query per shard at once
 * for the months or a day's hours, one batch read for a minute. They start with the event, so they
 * hold every live ticket.
 */

/** The count items of a holder a ticket bought at `bought` is counted in (its shard's month, hour and minute), each with its part's counter. */
export const purchaseCounters = (holder: PurchaseHolder, shard: number, bought: string): [Key, string][] => [
  [keys.purchaseMonth(holder, shard, monthOf(bought)), dayCounter(bought)],
  [keys.purchaseHour(holder, shard, hourOf(bought)), minuteCounter(bought)],
  [keys.purchaseMinute(holder, shard, minuteOf(bought)), secondCounter(bought)],
];

const SHARDS = Array.from({ length: STATS_SHARDS }, (_, shard) => shard);

/** Accumulates the purchase-count moves of one transaction: one Update per touched month, hour and minute. */
export class PurchaseDelta {
  private readonly items = new Map<string, { key: Key; counters: Map<string, number> }>();

  private add(key: Key, counter: string, delta: number): void {
    const id = `${key.PK}/${key.SK}`;
    const entry = this.items.get(id) ?? { key, counters: new Map<string, number>() };
    this.items.set(id, entry);
    for (const name of ['n', counter]) entry.counters.set(name, (entry.counters.get(name) ?? 0) + delta);
  }

  /** A live ticket enters (+1) or leaves (-1) its event's and its type's purchase counts. */
  listedTicket(record: TicketRecord, delta: number): void {
    const bought = record.purchasedDate ?? record.created;
    for (const holder of [{ eventId: record.eventId }, { eventId: record.eventId, typeId: record.typeId }])
      for (const [key, counter] of purchaseCounters(holder, shardOf(record.id), bought)) this.add(key, counter, delta);
  }

  actions() {
    return [...this.items.values()].flatMap(
      ({ key, counters }) => countersUpdate(key, 'PurchaseCount', counters) ?? [],
    );
  }
}

type Item = Record<string, unknown>;

/** A count item as a bucket: its sort key after `prefix` (`BOUGHT#<kind>#`, a type's `BOUGHT#type#<t>#<kind>#`), `n`, and its parts (`d`, `m` or `s` and two digits). */
const bucketOf = (item: Item, prefix: string, part: string): BucketCount => ({
  bucket: String(item.SK).slice(prefix.length),
  total: Number(item.n ?? 0),
  parts: new Map(
    Object.entries(item)
      .filter(([name]) => name.length === 3 && name.startsWith(part))
      .map(([name, n]) => [name, Number(n)]),
  ),
});

/** A holder's counts whose sort keys start with `prefix` in every shard (at most `limit` each), summed per bucket: one Query per shard, at once. */
async function readShardBuckets(
  holder: PurchaseHolder,
  prefix: string,
  bucketPrefix: string,
  part: string,
  limit: number,
): Promise<BucketCount[]> {
  const shards = await Promise.all(
    SHARDS.map(async (shard) => {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName(),
          ...keyCondition(keys.ticketCounts(holder.eventId, shard), { beginsWith: prefix }),
          Limit: limit,
        }),
      );
      return Items.map((item) => bucketOf(item, bucketPrefix, part));
    }),
  );
  return mergedBuckets(shards);
}

/** Month counts an event may have (a century of sales): the bound of their Query. */
const MAX_MONTHS = 1200;

/** The holder's month counts. */
const readPurchaseMonths = (holder: PurchaseHolder): Promise<BucketCount[]> => {
  const prefix = keys.purchaseMonthsPrefix(holder);
  return readShardBuckets(holder, prefix, prefix, 'd', MAX_MONTHS);
};

/** The hour counts of one day (`2026-11-26`): at most 24 per shard. */
const readPurchaseHours = (holder: PurchaseHolder, day: string): Promise<BucketCount[]> =>
  readShardBuckets(holder, keys.purchaseHoursPrefix(holder, day), keys.purchaseHour(holder, 0, '').SK, 'm', 24);

/** One minute's count (`2026-11-26T15:04`), when it has one: one batch read of its shards. */
async function readPurchaseMinute(holder: PurchaseHolder, minute: string): Promise<BucketCount | undefined> {
  const items = await batchGet(SHARDS.map((shard) => keys.purchaseMinute(holder, shard, minute)));
  const prefix = keys.purchaseMinute(holder, 0, '').SK;
  const found = items.flatMap((item) => (item ? [bucketOf(item, prefix, 's')] : []));
  return found.length ? mergedBuckets([found])[0] : undefined;
}

/**
 * The holder's live tickets within the range in purchase order, as the served list reads them (its entries, then
 * their tickets: one deleted meanwhile is left out), until `need`. An event's list is merged from its shards, where a
 * second's tickets need not alternate: the walk may ask a shard again for what another did not hold, up to about one
 * and a half times `need` (one partition, a type's: `need`).
 */
function livePurchases(holder: PurchaseHolder, range: { from?: string; to?: string }, need: number) {
  const bounds = { need, budget: 2 * need + INDEX_SHARDS.eventTickets, accept: () => true };
  return holder.typeId === undefined
    ? eventPurchases(holder.eventId, range, bounds)
    : typePurchases(holder.typeId, range, bounds);
}

/**
 * The holder's live tickets bought at or after `from` and before `before` (within one second), read as the served
 * list reads them, so a deleted ticket whose entry the stream's consumer has not yet taken out is not counted, as the
 * counts no longer count it. Undefined when more than `atMost` (a second of a bulk load) or when lagging entries kept
 * the read's budget from the range's end.
 */
async function countWithin(
  holder: PurchaseHolder,
  from: string,
  before: string,
  atMost: number,
): Promise<number | undefined> {
  if (from >= before) return 0;
  const read = await livePurchases(holder, { from, to: new Date(Date.parse(before) - 1).toISOString() }, atMost + 1);
  return read.records.length > atMost || !read.complete ? undefined : read.records.length;
}

/** The tickets bought before `instant` (undefined: its second holds more than `atMost` before it). */
async function boughtBeforeInstant(
  holder: PurchaseHolder,
  instant: string,
  months: readonly BucketCount[],
  atMost: number,
): Promise<number | undefined> {
  const [hours, minute, inSecond] = await Promise.all([
    readPurchaseHours(holder, dayOf(instant)),
    readPurchaseMinute(holder, minuteOf(instant)),
    countWithin(holder, secondStart(instant), instant, atMost),
  ]);
  return inSecond === undefined ? undefined : boughtBefore(instant, months, hours, minute, inSecond);
}

/** Where a purchase range lies among the holder's live tickets: the ones before it and the ones in it. */
export interface PurchaseSpan {
  before: number;
  total: number;
  months: BucketCount[];
}

/**
 * The holder's live tickets bought within [from, to] (either open), exactly, and how many
 * were bought before `from`; undefined when an edge second holds more than `atMost` tickets before its bound. Reads: the month counts,
 * then per bound its day's hour counts, its minute's count and, when the bound is not a
 * second's start, its second's live tickets before it (read as the served list reads them), all at once.
 */
export async function purchaseSpan(
  holder: PurchaseHolder,
  range: { from?: string; to?: string },
  atMost: number,
): Promise<PurchaseSpan | undefined> {
  const months = await readPurchaseMonths(holder);
  const all = months.reduce((sum, count) => sum + count.total, 0);
  const end = range.to === undefined ? undefined : justAfter(range.to);
  const [before, through] = await Promise.all([
    range.from === undefined ? 0 : boughtBeforeInstant(holder, range.from, months, atMost),
    end === undefined ? all : boughtBeforeInstant(holder, end, months, atMost),
  ]);
  if (before === undefined || through === undefined) return undefined;
  return { before, total: Math.max(0, through - before), months };
}

/**
 * The live tickets at positions `position`… of the holder (0-based, in purchase order), at
 * most `count` and none bought after `to`: the day, minute and second found from the
 * counts, then the second's tickets read from its start, the ones before the position
 * skipped (undefined when that is more than `atMost`, a second of a bulk load, or the counts
 * moved meanwhile). `more`: tickets follow the last one.
 */
export async function purchasesAt(
  holder: PurchaseHolder,
  span: PurchaseSpan,
  position: number,
  count: number,
  to: string | undefined,
  atMost: number,
): Promise<{ records: TicketRecord[]; more: boolean } | undefined> {
  const day = dayAt(position, span.months);
  const minute = day && minuteAt(position, day.before, await readPurchaseHours(holder, day.part));
  const minuteCount = minute && (await readPurchaseMinute(holder, minute.part));
  const second = minute && minuteCount && secondAt(position, minute.before, minuteCount);
  if (!second || position - second.before > atMost) return undefined;
  const skip = position - second.before;
  // Read as the served list reads a purchase range, from the second's start: the skipped few, then the page.
  const need = skip + count + 1;
  const read = await livePurchases(holder, { from: secondStart(second.part), to }, need);
  return { records: read.records.slice(skip, skip + count), more: read.records.length > skip + count };
}
