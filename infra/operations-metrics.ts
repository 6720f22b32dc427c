import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITableV2, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { METRIC, METRICS_NAMESPACE, STAGE_DIMENSION } from '#shared/metric-names';
import type { StageName } from './stages.ts';

/** The period of every alarm and graph but SES's (its reputation is an hourly figure). */
export const FIVE_MINUTES = Duration.minutes(5);

/** The DynamoDB operations the request paths call (shared/data): throttles and system errors are counted per operation, at most 10 in one alarm. */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

/**
 * The stage's metrics, defined once for its alarms and its dashboard (infra/operations.ts,
 * infra/operations-dashboard.ts): the API's, the table's summed over TABLE_OPERATIONS, and
 * the account's SES reputation.
 */
export function stageMetrics(api: IHttpApi, table: ITableV2) {
  const ses = (metricName: string, label: string) =>
    new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1), label });
  return {
    requests: api.metricCount({ statistic: 'Sum', period: FIVE_MINUTES, label: 'Requests' }),
    clientErrors: api.metricClientError({ statistic: 'Sum', period: FIVE_MINUTES, label: '4xx' }),
    serverErrors: api.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES, label: '5xx' }),
    latency: (statistic: string) =>
      api.metricLatency({ statistic, period: FIVE_MINUTES, label: `Latency ${statistic}` }),
    tableThrottled: table.metricThrottledRequestsForOperations({
      operations: TABLE_OPERATIONS,
      period: FIVE_MINUTES,
      label: 'Throttled requests',
    }),
    tableSystemErrors: table.metricSystemErrorsForOperations({
      operations: TABLE_OPERATIONS,
      period: FIVE_MINUTES,
      label: 'System errors',
    }),
    bounceRate: ses('Reputation.BounceRate', 'Bounce rate'),
    complaintRate: ses('Reputation.ComplaintRate', 'Complaint rate'),
  };
}

export type StageMetrics = ReturnType<typeof stageMetrics>;

/** A route function's metrics, labelled with its handler: what its alarms fire on and the dashboard graphs. */
export const functionMetrics = {
  errors: (fn: IFunction, label: string) => fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES, label }),
  p99Duration: (fn: IFunction, label: string) => fn.metricDuration({ statistic: 'p99', period: FIVE_MINUTES, label }),
  throttles: (fn: IFunction, label: string) => fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES, label }),
};

/**
 * A business metric of the functions (shared/services/metrics.ts): namespace `Ticketing`, dimensions
 * Powertools' `service` (POWERTOOLS_SERVICE_NAME) and `stage`, plus the metric's own.
 */
export function businessMetric(
  serviceName: string,
  stage: StageName,
  metricName: string,
  {
    dimensions = {},
    statistic = 'Sum',
    label,
  }: { dimensions?: Record<string, string>; statistic?: string; label?: string } = {},
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: serviceName, [STAGE_DIMENSION]: stage, ...dimensions },
    statistic,
    period: FIVE_MINUTES,
    label: label ?? metricName,
  });
}

/** The parts of the webhooks (infra/webhooks.ts) their alarms and graphs watch. */
export interface WatchedWebhooks {
  /** The table stream's consumer. */
  ticketChanges: IFunction;
  dispatcher: IFunction;
  /** The stream mapping's on-failure queue. */
  failedChanges: IQueue;
}

/** The webhooks' metrics, defined once for their alarms and the dashboard. */
export function webhookMetrics(webhooks: WatchedWebhooks, serviceName: string, stage: StageName) {
  return {
    /** Deliveries given up (retries exhausted, or 410 Gone), one count each. */
    deadDeliveries: businessMetric(serviceName, stage, METRIC.webhookDeliveryDead, { label: 'Dead deliveries' }),
    /** Subscriptions the service turned off (410 Gone, failing for the retry window, their administrator lost the right). */
    disabledWebhooks: businessMetric(serviceName, stage, METRIC.webhookDisabled, { label: 'Subscriptions disabled' }),
    /** Seconds the oldest undelivered message has waited: each dispatcher run publishes it, 0 when none waits. */
    oldestPendingAge: businessMetric(serviceName, stage, METRIC.webhookOldestPendingAge, {
      statistic: 'Maximum',
      label: 'Oldest undelivered (s)',
    }),
    /** How old the last stream record the consumer was handed was, in ms: how far behind the table it runs. */
    iteratorAge: webhooks.ticketChanges.metric('IteratorAge', {
      statistic: 'Maximum',
      period: FIVE_MINUTES,
      label: 'Stream iterator age (ms)',
    }),
    /** Batches of stream records the mapping gave up on: their pointers wait in the on-failure queue. */
    failedChanges: webhooks.failedChanges.metricApproximateNumberOfMessagesVisible({
      statistic: 'Maximum',
      period: FIVE_MINUTES,
      label: 'Stream batches given up',
    }),
    ticketChangesErrors: functionMetrics.errors(webhooks.ticketChanges, 'webhooks: stream consumer'),
    dispatcherErrors: functionMetrics.errors(webhooks.dispatcher, 'webhooks: dispatcher'),
  };
}

export type WebhookMetrics = ReturnType<typeof webhookMetrics>;
