import { describe, expect, it } from 'vitest';
import {
  customersIn,
  eventsIn,
  heatFigures,
  limitChecks,
  type MeasuredSale,
  type RecordedWrite,
  writtenByEveryEvent,
} from '../../bin/bench/heat-figures.ts';
import { byPattern, keyPattern } from '../../bin/bench/heat-report.ts';

/**
 * The heat bench's arithmetic (`npm run bench -- --heat`) on a hand-made record: event 1 made 2 holds and 2 paid
 * orders, event 2 made 4 holds and 1 paid order; the target is 1,000 holds and 300 paid orders a second per event.
 */
const sale: MeasuredSale = {
  events: [
    { id: 1, holds: 2, orders: 2 },
    { id: 2, holds: 4, orders: 1 },
  ],
};
const target = { holdsPerSecond: 1_000, ordersPerSecond: 300 };
const HOLD = 'POST /my-account/reservations';
const WEBHOOK = 'POST /payments/stripe/webhook';

const write = (
  fields: Partial<RecordedWrite> & Pick<RecordedWrite, 'pk' | 'sk' | 'by' | 'command'>,
): RecordedWrite => ({
  transactional: false,
  itemUnits: 1,
  indexes: [],
  ...fields,
});

const writes: RecordedWrite[] = [
  // Event 1's two holds each take its stock item in a transaction (2 units each).
  write({ pk: 'STOCK#7#0', sk: 'STOCK', by: HOLD, event: 1, command: 1, transactional: true, itemUnits: 2 }),
  write({ pk: 'STOCK#7#0', sk: 'STOCK', by: HOLD, event: 1, command: 2, transactional: true, itemUnits: 2 }),
  // Every hold of both events takes an id from one sequence item, in a write that tells no event.
  ...Array.from({ length: 6 }, (_, n) =>
    write({ pk: 'SEQUENCE#RESERVATION', sk: 'SEQUENCE', by: HOLD, command: 10 + n }),
  ),
  // Event 2's one paid order: its order item (4 units) and its index entry in the event's orders (4 units).
  write({
    pk: 'ORDER#5',
    sk: 'ORDER',
    by: WEBHOOK,
    event: 2,
    command: 20,
    transactional: true,
    itemUnits: 4,
    indexes: [{ indexName: 'GSI3', partition: 'EVENT_ORDERS#2', units: 4 }],
  }),
  // One stage-wide count both events' orders write in their transactions.
  write({ pk: 'ALL_ORDER_COUNTS', sk: 'COUNT', by: WEBHOOK, event: 2, command: 20, transactional: true, itemUnits: 2 }),
  write({ pk: 'ALL_ORDER_COUNTS', sk: 'COUNT', by: WEBHOOK, event: 1, command: 21, transactional: true, itemUnits: 2 }),
  // The lapse job's checkpoint: on a timer, whatever is sold.
  write({ pk: 'MAINTENANCE#release-reservations', sk: 'CHECKPOINT', by: 'release-reservations', command: 30 }),
];
const figures = heatFigures(writes, sale, target);
const item = (key: string) => figures.items.find((i) => i.key === key)!;

describe('the heat figures', () => {
  it("scales an event's writes by what that event measured: 2 holds' 2 transactions of 2 units stand for 1,000 holds a second", () => {
    expect(item('STOCK#7#0 STOCK')).toMatchObject({ unitsPerSecond: 2_000, transactionsPerSecond: 1_000 });
  });

  it('scales a write that tells no event by both events together: 6 holds for 2 × 1,000 a second', () => {
    expect(item('SEQUENCE#RESERVATION SEQUENCE').unitsPerSecond).toBeCloseTo(2_000, 6);
    expect(item('SEQUENCE#RESERVATION SEQUENCE').transactionsPerSecond).toBe(0);
    expect(item('SEQUENCE#RESERVATION SEQUENCE').events).toEqual([]);
  });

  it('puts index writes on the index partition they land on, the item units on the table partition', () => {
    expect(figures.partitions).toContainEqual({ where: 'GSI3', partition: 'EVENT_ORDERS#2', unitsPerSecond: 1_200 });
    expect(figures.partitions).toContainEqual({ where: 'table', partition: 'ORDER#5', unitsPerSecond: 1_200 });
    expect(figures.partitions[0]).toMatchObject({ where: 'table', partition: 'STOCK#7#0', unitsPerSecond: 2_000 });
  });

  it('counts one transaction per command an item was in, each scaled by its own event', () => {
    // Event 2's one order (300 a second) and event 1's one of two (150 a second).
    expect(item('ALL_ORDER_COUNTS COUNT')).toMatchObject({
      transactionsPerSecond: 450,
      unitsPerSecond: 900,
      transactionEvents: [1, 2],
    });
  });

  it('answers the write units per hold and per paid order, and leaves a job on a timer unscaled', () => {
    expect(figures.unitsPerHold).toBe((2 + 2 + 6) / 6);
    expect(figures.unitsPerOrder).toBe((8 + 2 + 2) / 3);
    expect(item('MAINTENANCE#release-reservations CHECKPOINT').unitsPerSecond).toBe(0);
    expect(figures.unitsByFunction).toContainEqual({ by: 'release-reservations', step: 'timer', unitsPer: 1 });
    // 2,000 (stock) + 2,000 (sequence) + 2,400 (order and its index entry) + 900 (the count).
    expect(figures.stageUnitsPerSecond).toBeCloseTo(7_300, 6);
  });

  it('flags the items every event wrote in a transaction, and each limit passed or failed', () => {
    expect(writtenByEveryEvent(figures, sale).map((i) => i.key)).toEqual(['ALL_ORDER_COUNTS COUNT']);
    expect(limitChecks(figures, sale).map((c) => [c.pass, c.over])).toEqual([
      [false, 3], // the stock and the sequence 2,000 WU/s each, the order 1,200 (the count's 900 is within)
      [false, 3], // the stock 1,000 tx/s, the count 450, the order 300
      [false, 4], // the stock, the sequence, the order, and its index partition
      [false, 1],
    ]);
    const calm = heatFigures(writes.slice(0, 1), sale, { holdsPerSecond: 10, ordersPerSecond: 1 });
    expect(limitChecks(calm, sale).every((check) => check.pass)).toBe(true);
  });
});

describe("a buyer's own items", () => {
  const own = (command: number, customer: number, pk = 'ORDER#9') =>
    write({ pk, sk: 'ORDER', by: WEBHOOK, event: 2, customer, command, transactional: true, itemUnits: 4 });
  const mixed = heatFigures(
    [
      ...[1, 2, 3, 4, 5].map((command) => own(command, 3)),
      own(6, 3, 'ORDER_COUNTS'),
      own(7, 4, 'ORDER_COUNTS'),
      write({ pk: 'ORDER_COUNTS', sk: 'ORDER', by: WEBHOOK, event: 2, command: 8 }),
    ],
    sale,
    target,
  );

  it('leaves out of the heat an item and a partition only one buyer wrote: its sale writes it, not every sale', () => {
    // Five transactions of one order would read as 1,500 a second if scaled as though every order wrote it.
    expect(mixed.items.map((i) => i.key)).toEqual(['ORDER_COUNTS ORDER']);
    expect(mixed.partitions.map((p) => p.partition)).toEqual(['ORDER_COUNTS']);
    expect(mixed.ownWrites).toEqual({ items: 1, partitions: 1 });
  });

  it('still counts their units in the cost of a paid order and in the stage', () => {
    expect(mixed.unitsPerOrder).toBe((7 * 4 + 1) / 3);
    expect(mixed.stageUnitsPerSecond).toBe((7 * 4 + 1) * 300);
  });
});

describe('telling events and reading keys', () => {
  it("tells a customer by a key of theirs or an item's customerId", () => {
    expect(
      customersIn([
        { PK: 'CUSTOMER#2', SK: 'RESERVATION#EVENT#1' },
        { PK: 'ORDER#3', customerId: 5 },
      ]),
    ).toEqual(new Set([2, 5]));
    expect(customersIn([{ PK: 'RATE#RESERVATIONS_CUSTOMER#2', SK: 'RATE' }])).toEqual(new Set([2]));
    expect(customersIn([{ PK: 'ORDER#3', GSI2PK: 'CUSTOMER_EVENT_ORDERS#2#1' }])).toEqual(new Set());
  });

  it("tells an event by its own key part or an item's eventId, not by a word that ends in EVENT", () => {
    expect(eventsIn([{ PK: 'CUSTOMER#2', SK: 'RESERVATION#EVENT#1' }], [1, 2])).toEqual(new Set([1]));
    expect(eventsIn([{ PK: 'ORDER#3', SK: 'ORDER', GSI2PK: 'CUSTOMER_EVENT_ORDERS#2#1' }], [1, 2])).toEqual(new Set());
    expect(eventsIn([{ PK: 'TICKET#9', SK: 'TICKET', eventId: 2 }, undefined], [1, 2])).toEqual(new Set([2]));
    expect(eventsIn([{ PK: 'EVENT#0', SK: 'POS#all#00000001' }], [1, 2])).toEqual(new Set());
  });

  it('folds numbers and times so that one kind of item reads as one pattern, its hottest kept', () => {
    expect(keyPattern('RESERVATION_DUE#2026-12-07T03:42#1 2026-12-07T03:42:10.123Z#17')).toBe(
      'RESERVATION_DUE#<time>#<n> <time>#<n>',
    );
    const rows = [
      { key: 'EVENT#1 POS#event#0001', heat: 5 },
      { key: 'EVENT#2 POS#event#0001', heat: 9 },
      { key: 'ALL_ORDER_COUNTS COUNT', heat: 7 },
    ];
    expect(
      byPattern(
        rows,
        (r) => r.key,
        (r) => r.heat,
      ),
    ).toEqual([
      { pattern: 'EVENT#<n> POS#event#<n>', hottest: rows[1], count: 2 },
      { pattern: 'ALL_ORDER_COUNTS COUNT', hottest: rows[2], count: 1 },
    ]);
  });
});
