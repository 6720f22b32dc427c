import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../config.ts';
import type { RefusalReason } from '../gate/domain/check-in.ts';
import { METRIC, METRICS_NAMESPACE, STAGE_DIMENSION, type LoginKind } from '../metric-names.ts';
import { onRequestEnd } from '../request-end.ts';

export { METRIC, METRICS_NAMESPACE } from '../metric-names.ts';

/**
 * Business metrics, as CloudWatch Embedded Metric Format lines on stdout (Lambda's log
 * group turns them into metrics; no PutMetricData call, no extra latency). One Powertools
 * instance per container, published once per request at its end (`publishRecorded`,
 * registered with request-end.ts when this module loads: only functions that record a
 * metric load it).
 *
 * Names in `metric-names.ts`. Namespace `Ticketing`; dimensions `service`
 * (POWERTOOLS_SERVICE_NAME, read by Powertools), `stage` and the metric's own one.
 * Output is off where POWERTOOLS_METRICS_DISABLED=true (tests, `npm start`); Powertools
 * reads that variable itself when the instance is created.
 */
export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  defaultDimensions: { [STAGE_DIMENSION]: config().STAGE },
});

/** The dimensions of the metrics stored since the last flush (EMF gives one dimension set to a whole line). */
let storedDimensions: string | undefined;

function record(name: string, dimensions: Record<string, string>, metadata: Record<string, string> = {}): void {
  const key = JSON.stringify(dimensions);
  if (!metrics.hasStoredMetrics() || storedDimensions !== key) {
    // A second metric with other dimensions in the same request would inherit the first's:
    // the first goes out on its own line.
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    storedDimensions = key;
    for (const [dimension, value] of Object.entries(dimensions)) metrics.addDimension(dimension, value);
  }
  for (const [field, value] of Object.entries(metadata)) metrics.addMetadata(field, value);
  metrics.addMetric(name, MetricUnit.Count, 1);
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

/** A webhook delivery that ended dead (retries exhausted, or 410 Gone). */
export const recordDeadDelivery = (): void => record(METRIC.webhookDeliveryDead, {});

/** A subscription the service turned off, and why (metadata: the alarm watches the count). */
export const recordWebhookDisabled = (reason: string): void => record(METRIC.webhookDisabled, {}, { reason });

/** A paid order's invoice the every-minute job could not number (it stays due for the next run). */
export const recordInvoiceStillDue = (): void => record(METRIC.invoiceStillDue, {});

/** A succeeded payment that paid no order, and why (metadata: the alarm watches the count). */
export const recordUnmatchedPayment = (reason: string): void => record(METRIC.paymentUnmatched, {}, { reason });
/** A card payment disputed (metadata: its reason, e.g. `fraudulent`). */
export const recordPaymentDisputed = (reason: string): void => record(METRIC.paymentDisputed, {}, { reason });

/** A recorded refund that failed later (metadata: Stripe's `failure_reason`). */
export const recordRefundFailed = (reason: string): void => record(METRIC.refundFailed, {}, { reason });

/** The dispatcher's reading of the oldest undelivered message (0 when none waits). */
export function recordOldestPendingAge(seconds: number): void {
  if (metrics.hasStoredMetrics()) publishRecorded();
  metrics.addMetric(METRIC.webhookOldestPendingAge, MetricUnit.Seconds, seconds);
}

/**
 * Publishes what the request recorded, after the handler and on errors. Powertools' own
 * `logMetrics` middleware would also do it, but warns "No application metrics to publish"
 * on every request that records none (most of them), once per request in the logs.
 */
export function publishRecorded(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  storedDimensions = undefined;
}
onRequestEnd(publishRecorded);
