import type { RouteRow } from '#shared/routes';
import type { Bundle } from './bundle.ts';
import type { LatencyResult } from './latency.ts';

/**
 * Against the route's floor (bin/bench/bundle.ts `floorSource`) and, for the handler,
 * the commands it sent replayed raw (bin/bench/replay.ts).
 */
export const TARGETS = { bundle: 1.15, init: 1.15, handler: 1.15 } as const;

/**
 * Routes whose handler ratio is dominated by deliberate work the replayed commands do not do
 * (legacy login runs scrypt): measured and shown, never counted as over the target.
 */
const DOMINATED_BY: Record<string, string> = { 'auth/legacy-login': 'scrypt' };

export interface RouteFigures {
  route: string;
  handler: string;
  bundleBytes: number;
  bundleRatio: number;
  /** The floor it is judged against (`floor`, `floor+s3`...). */
  floor: string;
  /** Packages that grew the bundle by over 1 KB compared with its floor, in bytes, largest first. */
  addedOverFloor: Record<string, number>;
  /** CPU ms of the module's import (median), and of its floor in the runs paired with it. */
  initMs: number;
  floorInitMs: number;
  initRatio: number;
  latency?: LatencyResult & { ratio: number; dominatedBy?: string };
  /** Which targets this route misses, e.g. `init 1.22x > 1.15x`. */
  over: string[];
}

export interface BenchResults {
  floors: { name: string; bundleBytes: number; initMs: number }[];
  routes: RouteFigures[];
}

export function figures(
  row: RouteRow,
  floor: { name: string; bundle: Bundle },
  bundle: Bundle,
  init: { ms: number; floorMs: number },
  latency: LatencyResult | undefined,
): RouteFigures {
  const bundleBytes = bundle.bytes;
  const bundleRatio = bundleBytes / floor.bundle.bytes;
  const added = Object.entries(bundle.packages)
    .map(([name, bytes]) => [name, bytes - (floor.bundle.packages[name] ?? 0)] as const)
    .filter(([, bytes]) => bytes > 1024)
    .sort((a, b) => b[1] - a[1]);
  const initMs = init.ms;
  const initRatio = init.ms / init.floorMs;
  const dominatedBy = DOMINATED_BY[row.handler];
  const ratio = latency && latency.medianMs / latency.rawMedianMs;
  const over: string[] = [];
  const check = (what: string, value: number | undefined, target: number) => {
    if (value !== undefined && value > target) over.push(`${what} ${value.toFixed(2)}x > ${target}x`);
  };
  check('bundle', bundleRatio, TARGETS.bundle);
  check('init', initRatio, TARGETS.init);
  if (!dominatedBy) check('handler', ratio, TARGETS.handler);
  return {
    route: `${row.method} ${row.path}`,
    handler: row.handler,
    bundleBytes,
    bundleRatio,
    floor: floor.name,
    addedOverFloor: Object.fromEntries(added),
    initMs,
    floorInitMs: init.floorMs,
    initRatio,
    ...(latency && ratio !== undefined
      ? { latency: { ...latency, ratio, ...(dominatedBy ? { dominatedBy } : {}) } }
      : {}),
    over,
  };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);
/** A ratio, flagged with `!` when over its target. */
const ratio = (value: number, target: number) => `${value.toFixed(2)}${value > target ? ' !' : ''}`;

export function table({ floors, routes }: BenchResults): string {
  const header = [
    'route (floor)',
    'bundle KB',
    'bundle ×floor',
    'init CPU ms',
    'init ×floor',
    'handler ms (med/p95)',
    'raw ms',
    'handler ×raw',
    'DynamoDB calls',
  ];
  const lines = [
    ...floors.map((f) => [`(${f.name})`, kb(f.bundleBytes), '1.00', ms(f.initMs), '1.00', '-', '-', '-', 'GetItem']),
    ...routes.map((r) => {
      const l = r.latency;
      return [
        `${r.route} (${r.floor.replace('floor', '') || '-'})`,
        kb(r.bundleBytes),
        ratio(r.bundleRatio, TARGETS.bundle),
        ms(r.initMs),
        ratio(r.initRatio, TARGETS.init),
        l ? `${ms(l.medianMs)} / ${ms(l.p95Ms)}` : '-',
        l ? ms(l.rawMedianMs) : '-',
        !l ? '-' : l.dominatedBy ? `${l.ratio.toFixed(2)} (${l.dominatedBy})` : ratio(l.ratio, TARGETS.handler),
        l ? `${l.callsPerRequest} ${l.calls}` : '-',
      ];
    }),
  ];
  const numeric = new Set([1, 2, 3, 4, 5, 6, 7]);
  const widths = header.map((title, c) => Math.max(title.length, ...lines.map((line) => line[c]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join(' | ')
      .trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(format)].join('\n');
}

export function summary({ routes }: BenchResults): string {
  const lines: string[] = [];
  const over = routes.filter((r) => r.over.length);
  lines.push(
    over.length
      ? `Over target: ${over.map((r) => `${r.route} (${r.over.join(', ')})`).join('; ')}.`
      : `All routes within targets (bundle ≤ ${TARGETS.bundle}x, init ≤ ${TARGETS.init}x their floor; handler ≤ ${TARGETS.handler}x raw).`,
  );
  // What each route carries over its floor, largest first: where to cut.
  for (const r of [...routes]
    .sort((a, b) => b.bundleRatio - a.bundleRatio)
    .filter((r) => r.over.some((what) => what.startsWith('bundle')))) {
    const added = Object.entries(r.addedOverFloor).map(([name, bytes]) => `${name} +${kb(bytes)}`);
    lines.push(`${r.route} over ${r.floor} (KB): ${added.join(', ')}.`);
  }
  for (const r of routes) {
    if (r.latency?.dominatedBy)
      lines.push(`${r.route}: handler ×raw is dominated by ${r.latency.dominatedBy} (deliberate), not judged.`);
  }
  return lines.join('\n');
}
