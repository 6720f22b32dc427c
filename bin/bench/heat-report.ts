import {
  type HeatFigures,
  type HeatTarget,
  isSequence,
  LIMITS,
  limitChecks,
  type MeasuredSale,
  writtenByEveryEvent,
} from './heat-figures.ts';

/** What `npm run bench -- --heat` prints (heat.ts): the figures of heat-figures.ts, keys folded into patterns. */
const TOP = 12;
const n = (value: number) => Math.round(value).toLocaleString('en-US');
const d1 = (value: number) => value.toFixed(1);
const PER = { hold: 'per hold', order: 'per paid order', timer: 'in the run (a job on a timer: not scaled)' } as const;

export function heatReport(figures: HeatFigures, sale: MeasuredSale, target: HeatTarget): string {
  const events = sale.events.length;
  const lines = [
    `On-sale heat: ${sale.events.map((e) => `event ${e.id} ${e.holds} holds, ${e.orders} paid orders`).join('; ')}`,
    `Target: ${events} events, each ${n(target.holdsPerSecond)} holds/s and ${n(target.ordersPerSecond)} paid orders of 2 tickets/s`,
    '',
    `Write units per hold: ${d1(figures.unitsPerHold)}; per paid order of 2 tickets: ${d1(figures.unitsPerOrder)}`,
    ...figures.unitsByFunction.map((f) => `  ${d1(f.unitsPer).padStart(7)} ${PER[f.step]}  ${f.by}`),
    `Stage at the target: ${n(figures.stageUnitsPerSecond)} WU/s`,
    '',
    `Hottest items by WU/s (pattern: items of it, the hottest one): WU/s, tx/s`,
    ...byPattern(
      figures.items,
      (i) => i.key,
      (i) => i.unitsPerSecond,
    )
      .slice(0, TOP)
      .map(
        (g) =>
          `  ${n(g.hottest.unitsPerSecond).padStart(8)} WU/s ${d1(g.hottest.transactionsPerSecond).padStart(8)} tx/s  ${g.pattern} (${g.count}; ${g.hottest.key})`,
      ),
    `Hottest items by transactions/s:`,
    ...byPattern(
      figures.items,
      (i) => i.key,
      (i) => i.transactionsPerSecond,
    )
      .slice(0, TOP)
      .filter((g) => g.hottest.transactionsPerSecond > 0)
      .map(
        (g) =>
          `  ${d1(g.hottest.transactionsPerSecond).padStart(8)} tx/s ${n(g.hottest.unitsPerSecond).padStart(8)} WU/s  ${g.pattern} (${g.count}; ${g.hottest.key})`,
      ),
    '',
    ...['table', ...new Set(figures.partitions.map((p) => p.where).filter((w) => w !== 'table'))].flatMap((where) => {
      const rows = figures.partitions.filter((p) => p.where === where && p.unitsPerSecond > 0);
      const over = rows.filter((p) => p.unitsPerSecond > LIMITS.partitionUnits).length;
      return [
        `Hottest partition keys of ${where === 'table' ? 'the table' : where} (${over} over ${n(LIMITS.partitionUnits)} WU/s):`,
        ...byPattern(
          rows,
          (p) => p.partition,
          (p) => p.unitsPerSecond,
        )
          .slice(0, where === 'table' ? TOP : 5)
          .map(
            (g) =>
              `  ${n(g.hottest.unitsPerSecond).padStart(8)} WU/s  ${g.pattern} (${g.count}; ${g.hottest.partition})`,
          ),
      ];
    }),
    `Left out of the heat: ${figures.ownWrites.items} items and ${figures.ownWrites.partitions} partition keys only one buyer's sale wrote (its order, tickets, reservation, account): each sale writes its own, so they do not scale with the rate (their units are in the costs above)`,
    '',
    ...everyEventLines(figures, sale),
    '',
    'Limits at the target (AWS: 1,000 WU/s per item and per partition key; ~50 transactions/s per item, an estimate of the conflict ceiling):',
    ...limitChecks(figures, sale).map(
      (c) => `  ${c.pass ? 'PASS' : 'FAIL'}  ${c.limit}${c.pass ? '' : ` (${c.over} over)`}`,
    ),
    ...costChecks(figures).map((c) => `  ${c.pass ? 'PASS' : 'FAIL'}  ${c.limit}`),
  ];
  return lines.join('\n');
}

function everyEventLines(figures: HeatFigures, sale: MeasuredSale): string[] {
  const every = writtenByEveryEvent(figures, sale);
  const row = (i: (typeof every)[number]) =>
    `  ${n(i.unitsPerSecond).padStart(8)} WU/s ${d1(i.transactionsPerSecond).padStart(8)} tx/s  ${i.key}`;
  const stageWide = figures.items.filter((i) => i.events.length === 0);
  return [
    `Items written in transactions by every event's sale: ${every.filter((i) => !isSequence(i.key)).length}`,
    ...every.filter((i) => !isSequence(i.key)).map(row),
    `  id sequences among them (allocated in blocks: allowed): ${every.filter((i) => isSequence(i.key)).length}`,
    ...every.filter((i) => isSequence(i.key)).map(row),
    `Items no write of which told its event (stage-wide, or a buyer's rate window): ${stageWide.length}`,
    ...byPattern(
      stageWide,
      (i) => i.key,
      (i) => i.unitsPerSecond,
    )
      .slice(0, 5)
      .map(
        (g) =>
          `  ${n(g.hottest.unitsPerSecond).padStart(8)} WU/s  ${keyPattern(g.hottest.key)} (${g.count}; ${g.hottest.key})`,
      ),
  ];
}

/** The cost targets beside the limits: a paid order of two tickets at most 150 WU, a hold at most 10. */
export function costChecks(figures: HeatFigures) {
  return [
    {
      limit: `a paid order of 2 tickets at most 150 WU (${d1(figures.unitsPerOrder)})`,
      pass: figures.unitsPerOrder <= 150,
    },
    { limit: `a hold at most 10 WU (${d1(figures.unitsPerHold)})`, pass: figures.unitsPerHold <= 10 },
  ];
}

/** A key with its numbers (ids, positions, times) folded, so that the items of one kind read as one pattern. */
export const keyPattern = (key: string): string =>
  key.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<time>').replace(/\d+/g, '<n>');

/** The hottest of each key pattern, hottest first by `measure`, with how many items share the pattern. */
export function byPattern<T>(rows: readonly T[], keyOf: (row: T) => string, measure: (row: T) => number) {
  const groups = new Map<string, { hottest: T; count: number }>();
  for (const row of rows) {
    const pattern = keyPattern(keyOf(row));
    const group = groups.get(pattern);
    if (!group) groups.set(pattern, { hottest: row, count: 1 });
    else {
      group.count++;
      if (measure(row) > measure(group.hottest)) group.hottest = row;
    }
  }
  return [...groups]
    .map(([pattern, { hottest, count }]) => ({ pattern, hottest, count }))
    .sort((a, b) => measure(b.hottest) - measure(a.hottest));
}
