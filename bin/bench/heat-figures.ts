import { keys } from '#shared/data/keys';
import type { IndexWrite, Item } from './write-pricing.ts';

/**
 * The heat bench's arithmetic (`npm run bench -- --heat`, heat.ts), pure so that its sums are unit-tested
 * (test/unit/heat-figures.test.ts): the writes one local sale of two events recorded (heat-record.ts), scaled to
 * the target rates by what was measured (the writes per hold and per paid order of the run × the target's holds
 * and paid orders a second), never by wall time. Per item: write units and transactions a second; per partition
 * key of the table and of each index: write units a second; the items written in transactions by every event's
 * sale; write units per hold and per paid order.
 */
export interface RecordedWrite {
  pk: string;
  sk: string;
  /** The deployed function that wrote it: a route's key (`POST /my-account/reservations`) or a job's name. */
  by: string;
  /** The event whose sale wrote it, when its command tells (eventsIn); undefined for a stage-wide write. */
  event?: number;
  /** The one customer (each buyer of the run is one) whose sale wrote it, when its command tells (customersIn). */
  customer?: number;
  /** The command that carried it: the items of one TransactWriteItems share it. */
  command: number;
  transactional: boolean;
  /** The table item's units (already doubled in a transaction). */
  itemUnits: number;
  /** Its index writes, each on the index partition it lands on (already doubled in a transaction). */
  indexes: IndexWrite[];
}

/**
 * The route whose writes are a hold's; the jobs that run on a timer, whatever is sold (their writes are counted
 * in the run, not scaled); every other write of the sale is a paid order's (every buyer of the run pays).
 */
export const HOLD_ROUTE = 'POST /my-account/reservations';
export const TIMER_JOBS: ReadonlySet<string> = new Set(['release-reservations']);
export type SaleStep = 'hold' | 'order' | 'timer';
export const stepOf = (write: Pick<RecordedWrite, 'by'>): SaleStep =>
  write.by === HOLD_ROUTE ? 'hold' : TIMER_JOBS.has(write.by) ? 'timer' : 'order';

/** Per event: 1,000 holds and 300 paid orders (of two tickets) a second. */
export interface HeatTarget {
  holdsPerSecond: number;
  ordersPerSecond: number;
}
export const DEFAULT_TARGET: HeatTarget = { holdsPerSecond: 1_000, ordersPerSecond: 300 };

/** What the run made, per event: its holds and its paid orders (each with its tickets issued). */
export interface MeasuredSale {
  events: { id: number; holds: number; orders: number }[];
}

/** DynamoDB's limits (item 1 of the target): a partition key's and an item's write units, an item's transactions. */
export const LIMITS = { partitionUnits: 1_000, itemUnits: 1_000, itemTransactions: 50 } as const;

// An event's own key part (`EVENT#12`, `EVENT_ORDERS#12`), not one that follows another word (`CUSTOMER_EVENT_ORDERS#<customer>`).
const EVENT_IN_KEY = /(?:^|#)EVENT[A-Z_]*#(\d+)/g;

/** The ids items name by `attribute` or by a part of their key or index keys that `inKey` matches (its group 1). */
function idsNamed(items: readonly (Item | undefined)[], attribute: string, inKey: RegExp): Set<number> {
  const found = new Set<number>();
  for (const item of items) {
    if (!item) continue;
    const named = item[attribute];
    if (typeof named === 'number' || typeof named === 'string') found.add(Number(named));
    for (const [name, value] of Object.entries(item))
      if (typeof value === 'string' && /^(PK|SK|GSI\d+(PK|SK))$/.test(name))
        for (const match of value.matchAll(inKey)) found.add(Number(match[1]));
  }
  return found;
}

/** The known events an item's key, index keys and `eventId` name (a command's items together tell its event). */
export function eventsIn(items: readonly (Item | undefined)[], known: readonly number[]): Set<number> {
  return new Set([...idsNamed(items, 'eventId', EVENT_IN_KEY)].filter((id) => known.includes(id)));
}

// A customer's own key part, alone or ending a word (`CUSTOMER#7`, a rate window's `RESERVATIONS_CUSTOMER#7`).
const CUSTOMER_IN_KEY = /(?:^|[#_])CUSTOMER#(\d+)/g;

/** The customers an item's key, index keys and `customerId` name (a command's items together tell its buyer). */
export function customersIn(items: readonly (Item | undefined)[]): Set<number> {
  return idsNamed(items, 'customerId', CUSTOMER_IN_KEY);
}

/**
 * Whose writes an item or partition had: one buyer's only (`own`: its order, tickets, reservation, account), or
 * several buyers' or untold ones (shared). A buyer's own item is written by that sale alone, whatever the rate:
 * scaling it by the target's rate would count it as if every sale wrote it, so it is left out of the heat.
 */
class Writers {
  private readonly customers = new Set<number>();
  private untold = false;
  add(write: RecordedWrite): void {
    if (write.customer === undefined) this.untold = true;
    else this.customers.add(write.customer);
  }
  get own(): boolean {
    return !this.untold && this.customers.size === 1;
  }
}

/**
 * How many a second at the target each recorded write of `step` stands for: the target's rate over what the run
 * measured, for its own event, or for the events together when the write tells none.
 */
export function scaleOf(write: RecordedWrite, sale: MeasuredSale, target: HeatTarget): number {
  const step = stepOf(write);
  if (step === 'timer') return 0;
  const rate = step === 'hold' ? target.holdsPerSecond : target.ordersPerSecond;
  const measured = (event: MeasuredSale['events'][number]) => (step === 'hold' ? event.holds : event.orders);
  const own = sale.events.find((event) => event.id === write.event);
  if (own && measured(own) > 0) return rate / measured(own);
  const all = sale.events.reduce((sum, event) => sum + measured(event), 0);
  return all > 0 ? (rate * sale.events.length) / all : 0;
}

export interface ItemHeat {
  key: string;
  unitsPerSecond: number;
  transactionsPerSecond: number;
  /** The events whose sales wrote it in a transaction. */
  transactionEvents: number[];
  /** The events whose sales wrote it at all (none: a stage-wide item no write of which told its event). */
  events: number[];
}

/** What `heatFigures` left out of the heat: the items and partition keys one buyer's own sale alone wrote. */
export interface OwnWrites {
  items: number;
  partitions: number;
}

export interface PartitionHeat {
  /** `table` or an index's name. */
  where: string;
  partition: string;
  unitsPerSecond: number;
}

export interface HeatFigures {
  unitsPerHold: number;
  unitsPerOrder: number;
  /** Write units per hold and per paid order by the function that wrote them (a timer's: its units in the run). */
  unitsByFunction: { by: string; step: SaleStep; unitsPer: number }[];
  stageUnitsPerSecond: number;
  /** Items and partition keys written by more than one buyer (or by writes that told none), hottest first. */
  items: ItemHeat[];
  partitions: PartitionHeat[];
  ownWrites: OwnWrites;
}

const totalUnits = (write: RecordedWrite) => write.itemUnits + write.indexes.reduce((sum, i) => sum + i.units, 0);

interface ItemTally {
  units: number;
  /** Each transaction the item was in, with how many a second it stands for. */
  commands: Map<number, number>;
  inTransactions: Set<number>;
  events: Set<number>;
  by: Writers;
}

/** The recorded writes summed: per function (as measured), per item and per partition key (scaled). */
class HeatTally {
  stage = 0;
  readonly byFunction = new Map<string, number>();
  readonly items = new Map<string, ItemTally>();
  readonly partitions = new Map<string, { units: number; by: Writers }>();

  add(write: RecordedWrite, scale: number): void {
    this.stage += totalUnits(write) * scale;
    this.byFunction.set(write.by, (this.byFunction.get(write.by) ?? 0) + totalUnits(write));
    const item = this.item(`${write.pk} ${write.sk}`);
    item.units += write.itemUnits * scale;
    item.by.add(write);
    if (write.event !== undefined) item.events.add(write.event);
    if (write.transactional) {
      item.commands.set(write.command, scale);
      if (write.event !== undefined) item.inTransactions.add(write.event);
    }
    this.onPartition(`table\u0000${write.pk}`, write.itemUnits * scale, write);
    for (const index of write.indexes)
      this.onPartition(`${index.indexName}\u0000${index.partition}`, index.units * scale, write);
  }

  private item(key: string): ItemTally {
    const item = this.items.get(key) ?? {
      units: 0,
      commands: new Map(),
      inTransactions: new Set(),
      events: new Set(),
      by: new Writers(),
    };
    this.items.set(key, item);
    return item;
  }

  private onPartition(key: string, units: number, write: RecordedWrite): void {
    const partition = this.partitions.get(key) ?? { units: 0, by: new Writers() };
    this.partitions.set(key, partition);
    partition.units += units;
    partition.by.add(write);
  }
}

const sortedIds = (ids: Set<number>) => [...ids].sort((a, b) => a - b);
const hottestFirst = <T extends { unitsPerSecond: number }>(rows: T[]) =>
  rows.sort((a, b) => b.unitsPerSecond - a.unitsPerSecond);

/** Write units per hold, per paid order, and by function, as measured (not scaled). */
function costs(byFunction: Map<string, number>, sale: MeasuredSale) {
  const holds = sale.events.reduce((sum, event) => sum + event.holds, 0);
  const orders = sale.events.reduce((sum, event) => sum + event.orders, 0);
  const per = (step: SaleStep) => (step === 'hold' ? holds : step === 'order' ? orders : 1);
  const rows = [...byFunction].map(([by, units]) => ({ by, step: stepOf({ by }), units }));
  const sumOf = (step: SaleStep) => rows.filter((row) => row.step === step).reduce((sum, row) => sum + row.units, 0);
  return {
    unitsPerHold: holds ? sumOf('hold') / holds : 0,
    unitsPerOrder: orders ? sumOf('order') / orders : 0,
    unitsByFunction: rows
      .map(({ by, step, units }) => ({ by, step, unitsPer: per(step) ? units / per(step) : 0 }))
      .sort((a, b) => b.unitsPer - a.unitsPer),
  };
}

/** Every figure of the bench, from the recorded writes, what the run sold and the target. */
export function heatFigures(writes: readonly RecordedWrite[], sale: MeasuredSale, target: HeatTarget): HeatFigures {
  const tally = new HeatTally();
  for (const write of writes) tally.add(write, scaleOf(write, sale, target));
  const shared = <T extends { by: Writers }>(map: Map<string, T>) => [...map].filter(([, entry]) => !entry.by.own);
  return {
    ...costs(tally.byFunction, sale),
    stageUnitsPerSecond: tally.stage,
    items: hottestFirst(
      shared(tally.items).map(([key, item]) => ({
        key,
        unitsPerSecond: item.units,
        transactionsPerSecond: [...item.commands.values()].reduce((sum, scale) => sum + scale, 0),
        transactionEvents: sortedIds(item.inTransactions),
        events: sortedIds(item.events),
      })),
    ),
    partitions: hottestFirst(
      shared(tally.partitions).map(([joined, { units }]) => {
        const [where, partition] = joined.split('\u0000') as [string, string];
        return { where, partition, unitsPerSecond: units };
      }),
    ),
    ownWrites: {
      items: [...tally.items.values()].filter((item) => item.by.own).length,
      partitions: [...tally.partitions.values()].filter((partition) => partition.by.own).length,
    },
  };
}

/** An id sequence (allocated in blocks, so fine to share): flagged apart from the items every event writes. */
const SEQUENCES = keys.sequence('').PK;
export const isSequence = (key: string): boolean => key.startsWith(SEQUENCES);

/** The items every event's sale wrote in a transaction (two events or more). */
export const writtenByEveryEvent = (figures: HeatFigures, sale: MeasuredSale): ItemHeat[] =>
  sale.events.length < 2
    ? []
    : figures.items.filter((item) => sale.events.every((event) => item.transactionEvents.includes(event.id)));

export interface LimitCheck {
  limit: string;
  pass: boolean;
  over: number;
}

/** PASS or FAIL for each limit of the target: over how many items or partition keys. */
export function limitChecks(figures: HeatFigures, sale: MeasuredSale): LimitCheck[] {
  const check = (limit: string, over: number) => ({ limit, pass: over === 0, over });
  return [
    check(
      `no item over ${LIMITS.itemUnits} WU/s`,
      figures.items.filter((i) => i.unitsPerSecond > LIMITS.itemUnits).length,
    ),
    check(
      `no item over ${LIMITS.itemTransactions} transactions/s`,
      figures.items.filter((i) => i.transactionsPerSecond > LIMITS.itemTransactions).length,
    ),
    check(
      `no partition key (table or index) over ${LIMITS.partitionUnits} WU/s`,
      figures.partitions.filter((p) => p.unitsPerSecond > LIMITS.partitionUnits).length,
    ),
    check(
      'no item written in transactions by every event (id sequences aside)',
      writtenByEveryEvent(figures, sale).filter((item) => !isSequence(item.key)).length,
    ),
  ];
}
