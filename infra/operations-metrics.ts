import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITableV2, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

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
