import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { LOGIN_KINDS, METRIC, METRICS_NAMESPACE, STAGE_DIMENSION } from '#shared/metric-names';
import type { RouteRow } from '#shared/routes';
import { alarmName } from './alarm-names.ts';
import {
  businessMetric,
  FIVE_MINUTES,
  functionMetrics,
  type StageMetrics,
  type WebhookMetrics,
} from './operations-metrics.ts';
import type { StageSettings } from './stages.ts';

export interface OperationsDashboardProps {
  settings: StageSettings;
  metrics: StageMetrics;
  table: ITableV2;
  routeFunctions: readonly { row: RouteRow; fn: IFunction }[];
  /** The stage-wide alarms, shown in one status widget. */
  alarms: Alarm[];
  /** POWERTOOLS_SERVICE_NAME of the functions: the `service` dimension of the business metrics. */
  serviceName: string;
  /** The webhooks' metrics (infra/webhooks.ts), where the stage has them. */
  webhooks?: WebhookMetrics;
}

/**
 * The stage's dashboard, `ticketing-<stage>-operations`: the API, each route function, the
 * table, SES, the business metrics (check-ins, failed logins) and the webhooks. Every alarm links it.
 */
export function operationsDashboard(
  scope: Construct,
  id: string,
  { settings, metrics, table, routeFunctions, alarms, serviceName, webhooks }: OperationsDashboardProps,
): Dashboard {
  const business = (metricName: string, dimensions: Record<string, string> = {}, label?: string) =>
    businessMetric(serviceName, settings.name, metricName, { dimensions, label });
  // Reasons come from the domain and may grow: a search finds every one that occurred.
  const refusedByReason = new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},${STAGE_DIMENSION},reason,service} MetricName="${METRIC.checkInRefused}" ${STAGE_DIMENSION}="${settings.name}" service="${serviceName}"', 'Sum', 300)`,
    usingMetrics: {},
    label: 'Refused: ',
    period: FIVE_MINUTES,
  });
  const graph = (title: string, left: IMetric[], width = 8) => new GraphWidget({ title, left, width, height: 6 });
  const each = (metric: (fn: IFunction, label: string) => IMetric) =>
    routeFunctions.map(({ row, fn }) => metric(fn, row.handler));
  const { requests, clientErrors, serverErrors, latency } = metrics;

  const dashboard = new Dashboard(scope, id, {
    dashboardName: alarmName(settings.name, 'operations'),
    defaultInterval: Duration.hours(3),
  });
  dashboard.addWidgets(
    new TextWidget({
      markdown: `# Ticketing ${settings.name}\nAlarms notify the SNS topic \`${alarmName(settings.name, 'alarms')}\`; README "Operations" says what each one means.`,
      width: 16,
      height: 2,
    }),
    new AlarmStatusWidget({ title: 'Stage alarms', alarms, width: 8, height: 2 }),
  );
  dashboard.addWidgets(
    graph('API requests', [requests, clientErrors, serverErrors]),
    graph('API latency (ms)', [latency('p50'), latency('p90'), latency('p99')]),
    graph('API 5xx %', [
      new MathExpression({
        expression: '100 * errors / requests',
        usingMetrics: { requests, errors: serverErrors },
        label: '5xx %',
        period: FIVE_MINUTES,
      }),
    ]),
  );
  dashboard.addWidgets(
    graph('Lambda errors per route', each(functionMetrics.errors)),
    graph('Lambda p99 duration per route (ms)', each(functionMetrics.p99Duration)),
    graph('Lambda throttles per route', each(functionMetrics.throttles)),
  );
  // Two widgets: both sums name their inputs after the operation (`getitem`), one graph cannot hold both.
  dashboard.addWidgets(
    graph(
      'DynamoDB consumed capacity',
      [
        table.metricConsumedReadCapacityUnits({ statistic: 'Sum', period: FIVE_MINUTES, label: 'Read units' }),
        table.metricConsumedWriteCapacityUnits({ statistic: 'Sum', period: FIVE_MINUTES, label: 'Write units' }),
      ],
      6,
    ),
    graph('DynamoDB throttled requests', [metrics.tableThrottled], 6),
    graph('DynamoDB system errors', [metrics.tableSystemErrors], 6),
    graph('SES reputation (account)', [metrics.bounceRate, metrics.complaintRate], 6),
  );
  dashboard.addWidgets(
    graph(
      'Check-ins admitted and refused (by reason)',
      [business(METRIC.checkInAdmitted, {}, 'Admitted'), refusedByReason],
      12,
    ),
    graph(
      'Failed logins (by login)',
      LOGIN_KINDS.map((login) => business(METRIC.loginFailed, { login }, login)),
      12,
    ),
  );
  if (webhooks) {
    dashboard.addWidgets(
      graph('Webhooks: dead deliveries', [webhooks.deadDeliveries], 6),
      graph('Webhooks: subscriptions disabled', [webhooks.disabledWebhooks], 6),
      graph('Webhooks: oldest undelivered message (s)', [webhooks.oldestPendingAge], 6),
      graph('Webhooks: stream consumer behind the table (ms)', [webhooks.iteratorAge], 6),
      graph(
        'Webhooks: errors and stream batches given up',
        [webhooks.ticketChangesErrors, webhooks.dispatcherErrors, webhooks.failedChanges],
        6,
      ),
    );
  }
  return dashboard;
}
