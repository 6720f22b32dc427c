import type { RushResult } from './onsale-outcomes.ts';

/** The on-sale rush's figures (onsale-core.ts): a second's worth of each route, p50/p99, refusals and outcomes. */
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

function figures(samples: RushResult['api']) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const from = Math.min(...samples.map((s) => s.sentAt));
  const to = Math.max(...samples.map((s) => s.sentAt + s.ms));
  const statuses: Record<string, number> = {};
  for (const s of samples) {
    const key = `${s.status}${s.reason ? ` ${s.reason}` : ''}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    requests: samples.length,
    perSecond: samples.length ? samples.length / Math.max(0.001, (to - from) / 1000) : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    statuses,
  };
}

export function summarise(result: RushResult) {
  const rush = result.api.filter((s) => s.route === 'POST /my-account/reservations' && s.first);
  const held = rush.filter((s) => s.status === 201);
  const reservations = figures(rush);
  const later = figures(result.api.filter((s) => s.route === 'POST /my-account/reservations' && !s.first));
  const checkouts = figures(result.api.filter((s) => s.route === 'POST /my-account/reservations/{id}/checkout'));
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
  const fmt = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([key, n]) => `${n}× ${key}`)
      .join(', ');
  const lines = [
    `  reservations (first tries) ${reservations.requests} in ${f(result.rushMs / 1000)} s: ${f(reservations.perSecond)}/s answered, ${held.length} held, p50 ${f(reservations.p50Ms)} ms, p99 ${f(reservations.p99Ms)} ms; ${fmt(reservations.statuses)}`,
    `  reservations (from the queue, after a 429) ${later.requests}: p50 ${f(later.p50Ms)} ms, p99 ${f(later.p99Ms)} ms; ${fmt(later.statuses)}`,
    `  checkouts ${checkouts.requests}: ${f(checkouts.perSecond)}/s, p50 ${f(checkouts.p50Ms)} ms, p99 ${f(checkouts.p99Ms)} ms; ${fmt(checkouts.statuses)}`,
    `  payments confirmed at the stand-in ${result.confirms.length} (${result.confirms.filter((c) => c.status !== 200).length} declined); ${result.retriedAfter429} reservations retried after Retry-After`,
    `  buyers: ${fmt(result.outcomes)}`,
  ];
  return { lines, figures: { elapsedMs: result.elapsedMs, rushMs: result.rushMs, reservations, later, checkouts } };
}
