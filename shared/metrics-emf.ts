import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from './config.ts';
import { METRICS_NAMESPACE, STAGE_DIMENSION } from './metric-names.ts';

/**
 * The Powertools side of the business metrics (metrics.ts records, this publishes):
 * loaded by the first request that recorded something, so the package and its instance
 * cost a container's cold start nothing (most routes never record; README "Performance").
 * One instance per container. Output is off where POWERTOOLS_METRICS_DISABLED=true (tests,
 * `npm start`); Powertools reads that variable itself when the instance is created.
 */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, defaultDimensions: { [STAGE_DIMENSION]: config().STAGE } });

export interface Recorded {
  name: string;
  dimensions: Record<string, string>;
  metadata: Record<string, string>;
}

/** Publishes one request's metrics, in the order recorded: each change of dimensions starts a new EMF line. */
export function publish(recorded: readonly Recorded[]): void {
  let storedDimensions: string | undefined;
  for (const { name, dimensions, metadata } of recorded) {
    const key = JSON.stringify(dimensions);
    if (!metrics.hasStoredMetrics() || storedDimensions !== key) {
      // A second metric with other dimensions in the same request would inherit the first's:
      // the first goes out on its own line. Dimensions are added once per line (Powertools warns on re-adding).
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
      storedDimensions = key;
      for (const [dimension, value] of Object.entries(dimensions)) metrics.addDimension(dimension, value);
    }
    for (const [field, value] of Object.entries(metadata)) metrics.addMetadata(field, value);
    metrics.addMetric(name, MetricUnit.Count, 1);
  }
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
