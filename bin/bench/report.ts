import type { RouteRow } from '#shared/routes';
import type { Bundle } from './bundle.ts';
import type { LatencyResult } from './latency.ts';

export const TARGETS = { bundle: 1.2, init: 1.15, handler: 1.15 } as const;

/**
 * Routes whose handler ratio is dominated by deliberate work the raw commands do not do
 * (legacy login runs scrypt): measured and shown, never counted as over the target.
 */
const DOMINATED_BY: Record<string, string> = { 'auth/legacy-login': 'scrypt' };

export interface RouteFigures {
  route: string;
  handler: string;
  bundleBytes: number;
  bundleRatio: number;
  /** Packages that grew the bundle by over 1 KB compared with the bare one, in bytes, largest first. */
  addedOverBare: Record<string, number>;
  initMs: number;
  initRatio: number;
  latency?: LatencyResult & { ratio: number; dominatedBy?: string };
  /** Which targets this route misses, e.g. `init 1.22x > 1.15x`. */
  over: string[];
}

export interface BenchResults {
  baseline: { bundleBytes: number; initMs: number };
  routes: RouteFigures[];
}

export function figures(
  row: RouteRow,
  baseline: BenchResults['baseline'] & { bundle: Bundle },
  bundle: Bundle,
  initMs: number,
  latency: LatencyResult | undefined,
): RouteFigures {
  const bundleBytes = bundle.bytes;
  const bundleRatio = bundleBytes / baseline.bundleBytes;
  const added = Object.entries(bundle.packages)
    .map(([name, bytes]) => [name, bytes - (baseline.bundle.packages[name] ?? 0)] as const)
    .filter(([, bytes]) => bytes > 1024)
    .sort((a, b) => b[1] - a[1]);
  const initRatio = initMs / baseline.initMs;
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
    addedOverBare: Object.fromEntries(added),
    initMs,
    initRatio,
    ...(latency && ratio !== undefined ? { latency: { ...latency, ratio, ...(dominatedBy ? { dominatedBy } : {}) } } : {}),
    over,
  };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);
/** A ratio, flagged with `!` when over its target. */
const ratio = (value: number, target: number) => `${value.toFixed(2)}${value > target ? ' !' : ''}`;

export function table({ baseline, routes }: BenchResults): string {
  const header = ['route', 'bundle KB', 'bundle ×bare', 'init ms', 'init ×bare', 'handler ms (med/p95)', 'raw ms', 'handler ×raw', 'DynamoDB calls'];
  const lines = [
    ['(bare DocumentClient + GetCommand)', kb(baseline.bundleBytes), '1.00', ms(baseline.initMs), '1.00', '-', '-', '-', 'GetItem'],
    ...routes.map((r) => {
      const l = r.latency;
      return [
        r.route,
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
    cells.map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(' | ').trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(format)].join('\n');
}

export function summary({ routes }: BenchResults): string {
  const lines: string[] = [];
  const over = routes.filter((r) => r.over.length);
  lines.push(
    over.length
      ? `Over target: ${over.map((r) => `${r.route} (${r.over.join(', ')})`).join('; ')}.`
      : `All routes within targets (bundle ≤ ${TARGETS.bundle}x, init ≤ ${TARGETS.init}x bare; handler ≤ ${TARGETS.handler}x raw).`,
  );
  // What to cut first: the packages the largest route adds over the bare bundle.
  const largest = routes.reduce((a, b) => (b.bundleBytes > a.bundleBytes ? b : a));
  if (largest.over.some((what) => what.startsWith('bundle'))) {
    const added = Object.entries(largest.addedOverBare).map(([name, bytes]) => `${name} +${kb(bytes)}`);
    lines.push(`Bundle growth over bare (${largest.route}, in KB): ${added.join(', ')}.`);
  }
  for (const r of routes) {
    if (r.latency?.dominatedBy) lines.push(`${r.route}: handler ×raw is dominated by ${r.latency.dominatedBy} (deliberate), not judged.`);
    if (r.latency?.rawCalls) lines.push(`WARNING ${r.route}: raw side sent ${r.latency.rawCalls}, handler ${r.latency.calls}: fix its scenario.`);
  }
  return lines.join('\n');
}
