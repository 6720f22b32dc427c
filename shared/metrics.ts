import type { MiddlewareObj } from '@middy/core';
import type { RefusalReason } from './domain/check-in.ts';
import type { Recorded } from './metrics-emf.ts';
import { METRIC, type LoginKind } from './metric-names.ts';

export { METRIC, METRICS_NAMESPACE } from './metric-names.ts';

/**
 * Business metrics, as CloudWatch Embedded Metric Format lines on stdout (Lambda's log
 * group turns them into metrics; no PutMetricData call, no extra latency). A request
 * records here; the middy stack publishes once per request (`flushMetrics`) through
 * Powertools Metrics (metrics-emf.ts), imported only when a request recorded something.
 *
 * Names in `metric-names.ts`. Namespace `Ticketing`; dimensions `service`
 * (POWERTOOLS_SERVICE_NAME, read by Powertools), `stage` and the metric's own one.
 */

/** What the current request recorded, in order. */
let recorded: Recorded[] = [];

function record(name: string, dimensions: Record<string, string>, metadata: Record<string, string> = {}): void {
  recorded.push({ name, dimensions, metadata });
}

/** The gate's decision on one scan. */
export function recordCheckIn(outcome: { admitted: true } | { admitted: false; reason: RefusalReason }): void {
  if (outcome.admitted) record(METRIC.checkInAdmitted, {});
  else record(METRIC.checkInRefused, { reason: outcome.reason });
}

/** A login that failed, and why (`reason` stays out of the dimensions: causes are many, alarms watch the kind). */
export function recordFailedLogin(login: LoginKind, reason: string): void {
  record(METRIC.loginFailed, { login }, { reason });
}

/**
 * Publishes what the request recorded, after the handler and on errors. Powertools' own
 * `logMetrics` middleware would also do it, but warns "No application metrics to publish"
 * on every request that records none (most of them), once per request in the logs.
 */
export function flushMetrics(): MiddlewareObj {
  const flush = async () => {
    if (!recorded.length) return;
    const batch = recorded;
    recorded = [];
    const { publish } = await import('./metrics-emf.ts');
    publish(batch);
  };
  return { after: flush, onError: flush };
}
