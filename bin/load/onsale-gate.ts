/**
 * The gate side of the on-sale rush: another event's issued tickets checked in through the same API while the
 * buyers arrive, so reservations and check-ins a second are measured in the same run, on the same server, over the
 * same window (two runs minutes apart on a shared machine are not comparable: bin/load/README.md). One way to do a
 * gate rush: gate-rush-core.ts, with its own checks (gate-rush-verify.ts: no double admission, counters exact).
 */
import { API_PREFIX } from '#shared/api-prefix';
import { type Prepared, prepareGateRush, runGateRush } from './gate-rush-core.ts';
import { verifyGateRush } from './gate-rush-verify.ts';
import { runOnSale, type RushOptions } from './onsale-core.ts';
import type { RushResult } from './onsale-outcomes.ts';
import type { OnSaleTarget, PreparedOnSale } from './onsale-setup.ts';

export interface GateSide {
  prepared: Prepared;
  scanners: number;
  rescanners: number;
}

/**
 * As many gate clients as the on-sale's `concurrency`, so both sides have as many requests in flight: a fifth of
 * them (1 to 5) re-scan one ticket (only the first scan may admit it: the double-admission check), the rest scan
 * distinct tickets. With `--concurrency 25` that is `npm run load:gate`'s 20 and 5.
 */
export async function prepareGateSide(concurrency: number, tickets: number, progress: (line: string) => void) {
  const rescanners = Math.max(1, Math.min(5, Math.floor(concurrency / 5)));
  const scanners = Math.max(1, concurrency - rescanners);
  const prepared = await prepareGateRush({ scanners, rescanners, tickets, durationMs: 0 }, progress);
  return { prepared, scanners, rescanners } satisfies GateSide;
}

/** The on-sale rush, and the gate rush beside it until every buyer's first reservation is answered. */
export async function runOnSaleBesideGate(
  target: OnSaleTarget,
  prepared: PreparedOnSale,
  options: RushOptions,
  gate: GateSide | undefined,
  progress?: (line: string) => void,
) {
  const stop = new AbortController();
  const from = performance.now();
  const gateRun = gate
    ? runGateRush(serverOf(target), gate.prepared, {
        scanners: gate.scanners,
        rescanners: gate.rescanners,
        tickets: gate.prepared.pool.length,
        durationMs: options.maxMs,
        signal: stop.signal,
      })
    : undefined;
  let to = Number.NaN;
  const onSale = runOnSale(
    target,
    prepared,
    {
      ...options,
      onFirstTriesAnswered: () => {
        to = performance.now();
        stop.abort();
      },
    },
    progress,
  ).finally(() => stop.abort());
  const [result, gateResult] = await Promise.all([onSale, gateRun]);
  // runOnSale's clock starts as it is called, right after `from`: its times are from `from` within a millisecond.
  if (Number.isNaN(to)) to = from + result.rushMs;
  return { result, gate: gate && gateResult ? { ...gate, result: gateResult, window: { from, to } } : undefined };
}

export type GateRun = NonNullable<Awaited<ReturnType<typeof runOnSaleBesideGate>>['gate']>;

/** The gate rush's own checks, each failure a sentence marked as the gate's. */
export async function verifyGateSide(target: OnSaleTarget, gate: GateRun): Promise<string[]> {
  const failures = await verifyGateRush(serverOf(target), gate.prepared, gate.result);
  return failures.map((line) => `gate rush: ${line}`);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

function perWindow(answers: { ms: number; answeredAt: number }[], from: number, to: number) {
  const within = answers.filter((a) => a.answeredAt >= from && a.answeredAt <= to);
  const sorted = within.map((a) => a.ms).sort((a, b) => a - b);
  return {
    answered: within.length,
    perSecond: within.length / Math.max(0.001, (to - from) / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

/**
 * Reservations (the buyers' first tries) and check-ins (the distinct tickets' scans) answered a second over the same
 * window: from the rush's start until every buyer's first reservation was answered (or the gate's tickets ran out).
 */
export function sameWindow(result: RushResult, gate: GateRun) {
  const { from } = gate.window;
  // Once the gate's tickets ran out it stopped: the window ends there too, so neither side is measured alone.
  const ranOutAt = gate.result.scans.reduce((last, s) => Math.max(last, s.answeredAt), from);
  const to = gate.result.ranOut ? Math.min(gate.window.to, ranOutAt) : gate.window.to;
  const reservations = perWindow(
    result.api
      .filter((a) => a.route === 'POST /my-account/reservations' && a.first)
      .map((a) => ({ ms: a.ms, answeredAt: from + a.sentAt + a.ms })),
    from,
    to,
  );
  const checkIns = perWindow(gate.result.scans, from, to);
  const rescans = perWindow(gate.result.rescans, from, to);
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
  const ratio = checkIns.perSecond ? reservations.perSecond / checkIns.perSecond : Number.NaN;
  const lines = [
    `  same window, ${f((to - from) / 1000)} s (the rush's start to ${gate.result.ranOut ? 'the gate tickets running out' : "its last first reservation's answer"}), ${gate.scanners + gate.rescanners} gate clients beside it:`,
    `    reservations ${f(reservations.perSecond)}/s (${reservations.answered}), p50 ${f(reservations.p50Ms)} ms, p99 ${f(reservations.p99Ms)} ms`,
    `    check-ins    ${f(checkIns.perSecond)}/s (${checkIns.answered}, ${gate.scanners} scanners), p50 ${f(checkIns.p50Ms)} ms, p99 ${f(checkIns.p99Ms)} ms; re-scans ${f(rescans.perSecond)}/s (${gate.rescanners} clients)`,
    `    reservations / check-ins a second: ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'}${gate.result.ranOut ? ` (the gate's ${gate.prepared.pool.length} tickets ran out before the rush's end: the window ends there; raise --gate)` : ''}`,
  ];
  return {
    lines,
    figures: {
      windowMs: to - from,
      reservations,
      checkIns,
      rescans,
      ratio,
      gate: {
        eventId: gate.prepared.eventId,
        scanners: gate.scanners,
        rescanners: gate.rescanners,
        ranOut: gate.result.ranOut,
      },
    },
  };
}

/** The server's root (the gate rush's paths carry the API's prefix themselves). */
const serverOf = (target: OnSaleTarget) => target.apiUrl.slice(0, target.apiUrl.length - API_PREFIX.length);
