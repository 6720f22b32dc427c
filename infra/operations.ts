import { Aws, Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { RouteRow } from '#shared/routes';
import { alarmName, routeSlug } from './alarm-names.ts';
import { alarmTopic } from './alarm-topic.ts';
import { concurrencyOf } from './concurrency.ts';
import { constructId } from './construct-id.ts';
import { operationsDashboard } from './operations-dashboard.ts';
import {
  FIVE_MINUTES,
  functionMetrics,
  stageMetrics,
  type WatchedWebhooks,
  webhookMetrics,
} from './operations-metrics.ts';
import { issuingAlarms } from './issuing-alarms.ts';
import { paymentAlarms } from './payment-alarms.ts';
import { type AddAlarm, mailAlarms, tableAlarms, webhookAlarms } from './service-alarms.ts';
import type { RouteFunction } from './route-function.ts';
import { FIRST_STEPS, type RunbookEntry } from './runbook.ts';
import type { StageName, StageSettings } from './stages.ts';

/**
 * Alarm thresholds per stage, kept here because nothing else reads them. dev and staging
 * carry the same alarms as prod (a deploy shows what prod will page on) with looser
 * thresholds: their traffic is tests and a few people, where one slow cold start is a p99.
 */
export interface AlarmThresholds {
  /** Percentage of API requests answered 5xx over 5 minutes, counted once there are `minRequests`. */
  api5xxPercent: number;
  minRequests: number;
  /** p99 of API Gateway's `Latency` (Lambda included), milliseconds, 3 periods of 5 minutes running. */
  apiP99Ms: number;
  /** DynamoDB requests throttled (after the SDK's retries gave up or not) in 5 minutes. */
  tableThrottledRequests: number;
}

export const ALARM_THRESHOLDS: Record<StageName, AlarmThresholds> = {
  dev: { api5xxPercent: 10, minRequests: 10, apiP99Ms: 5000, tableThrottledRequests: 25 },
  staging: { api5xxPercent: 5, minRequests: 20, apiP99Ms: 3000, tableThrottledRequests: 10 },
  prod: { api5xxPercent: 1, minRequests: 50, apiP99Ms: 2000, tableThrottledRequests: 5 },
};

/** A route function's p99 duration above this share of its timeout alarms: it is about to time out. */
export const DURATION_ALARM_SHARE = 0.8;
export { SES_BOUNCE_RATE, SES_COMPLAINT_RATE, WEBHOOK_THRESHOLDS } from './service-alarms.ts';
export interface OperationsProps extends NestedStackProps {
  settings: StageSettings;
  api: HttpApi;
  table: ITableV2;
  functions: ReadonlyMap<RouteRow, RouteFunction>;
  /** POWERTOOLS_SERVICE_NAME of the functions: the `service` dimension of the business metrics. */
  serviceName: string;
  /** Whether some route sends mail (then SES reputation alarms). */
  sendsEmail: boolean;
  /** The data migration runner (infra/migrations.ts): its failures page, a half-done migration stays half-done. */
  migrationRunner?: IFunction;
  /** The webhooks' stream consumer, dispatcher and on-failure queue (infra/webhooks.ts). */
  webhooks?: WatchedWebhooks;
  /** The paid orders' issuing consumer and its on-failure queue (infra/paid-order-issuing.ts). */
  issuing?: { consumer: IFunction; givenUp: IQueue };
}

/**
 * The stage's alarms, their SNS topic (infra/alarm-topic.ts) and its dashboard
 * (infra/operations-dashboard.ts). A nested stack: two alarms per route function would push
 * the main stack past CloudFormation's 500 resources.
 *
 * Per route function: Errors (unhandled: crashes, timeouts, failed cold starts), p99
 * Duration near the timeout, and Throttles for the capped ones (infra/concurrency.ts),
 * named after the route. The account's Lambda Throttles: the shared pool is exhausted.
 */
export class Operations extends NestedStack {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  /** The stage-wide alarms (API, throttles, table, SES); the per-function ones are in `functionAlarms`. */
  readonly alarms: Alarm[] = [];
  readonly functionAlarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id, { ...props, description: `Ticketing API (${props.settings.name}): alarms and dashboard` });
    const { settings, api, table, functions } = props;
    const name = (suffix: string) => alarmName(settings.name, suffix);
    const limits = ALARM_THRESHOLDS[settings.name];

    this.topic = alarmTopic(this, 'Alarms', settings);
    // The stage's topic, and the existing topics its file names (a pager's, a chat integration's).
    const actions = [
      new SnsAction(this.topic),
      ...settings.alarmSubscribers.topicArns.map(
        (arn, index) => new SnsAction(Topic.fromTopicArn(this, `Subscriber${index}`, arn)),
      ),
    ];
    const dashboardUrl = `https://console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${name('operations')}`;
    // Every alarm says what to do first (infra/runbook.ts) and where the dashboard is, in the notification itself.
    const alarm = (list: Alarm[], id: string, props: ConstructorParameters<typeof Alarm>[2], runbook: RunbookEntry) => {
      const alarmDescription = `${props.alarmDescription} First: ${FIRST_STEPS[runbook]} Dashboard: ${dashboardUrl}`;
      const created = new Alarm(this, id, {
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...props,
        alarmDescription,
      });
      created.addAlarmAction(...actions);
      created.addOkAction(...actions);
      list.push(created);
      return created;
    };

    const metrics = stageMetrics(api, table);

    // --- API -------------------------------------------------------------------------
    alarm(
      this.alarms,
      'Api5xxRate',
      {
        alarmName: name('api-5xx-rate'),
        alarmDescription: `More than ${limits.api5xxPercent} % of API requests answered 5xx in 5 minutes (from ${limits.minRequests} requests on).`,
        metric: new MathExpression({
          expression: `IF(requests >= ${limits.minRequests}, 100 * errors / requests, 0)`,
          usingMetrics: { requests: metrics.requests, errors: metrics.serverErrors },
          period: FIVE_MINUTES,
          label: '5xx %',
        }),
        threshold: limits.api5xxPercent,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      },
      'api-5xx-rate',
    );
    alarm(
      this.alarms,
      'ApiLatencyP99',
      {
        alarmName: name('api-latency-p99'),
        alarmDescription: `API p99 latency above ${limits.apiP99Ms} ms for 15 minutes.`,
        metric: metrics.latency('p99'),
        threshold: limits.apiP99Ms,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
      },
      'api-latency-p99',
    );

    // --- Lambda ----------------------------------------------------------------------
    const routeFunctions = [...functions].map(([row, fn]) => ({ row, fn: fn.function }));
    for (const { row, fn } of routeFunctions) {
      const label = row.handler;
      const slug = routeSlug(row);
      // As the function's construct id (ticketing-stack.ts): `TicketsCheckIn`.
      const routeId = constructId(row.handler);
      alarm(
        this.functionAlarms,
        `${routeId}Errors`,
        {
          alarmName: name(`${slug}-errors`),
          alarmDescription: `${row.method} ${row.path}: the function failed (unhandled error, timeout or failed start).`,
          metric: functionMetrics.errors(fn, label),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
        'errors',
      );
      const timeout = (fn.timeout ?? Duration.seconds(3)).toMilliseconds();
      alarm(
        this.functionAlarms,
        `${routeId}Duration`,
        {
          alarmName: name(`${slug}-duration`),
          alarmDescription: `${row.method} ${row.path}: p99 duration above ${DURATION_ALARM_SHARE * 100} % of the ${timeout / 1000} s timeout in 2 of 3 periods of 5 minutes.`,
          metric: functionMetrics.p99Duration(fn, label),
          threshold: Math.round(timeout * DURATION_ALARM_SHARE),
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 3,
          datapointsToAlarm: 2,
        },
        'duration',
      );
      // A capped function (infra/concurrency.ts) is throttled at its number: say so per route.
      const { reserved } = concurrencyOf(row, settings);
      if (reserved === undefined) continue;
      alarm(
        this.functionAlarms,
        `${routeId}Throttles`,
        {
          alarmName: name(`${slug}-throttles`),
          alarmDescription: `${row.method} ${row.path}: throttled at its reserved concurrency of ${reserved} (callers got 503).`,
          metric: functionMetrics.throttles(fn, label),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
        'throttles',
      );
    }
    alarm(
      this.alarms,
      'LambdaThrottles',
      {
        alarmName: name('lambda-throttles'),
        alarmDescription:
          'Lambda throttled invocations in this account and region: the unreserved concurrency the routes share is exhausted (other workloads in the account count too).',
        metric: new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'Throttles',
          statistic: 'Sum',
          period: FIVE_MINUTES,
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      },
      'lambda-throttles',
    );

    if (props.migrationRunner)
      alarm(
        this.alarms,
        'MigrationsFailed',
        {
          alarmName: name('migrations-failed'),
          alarmDescription:
            'The data migration runner failed (after its 2 retries, each attempt counts): a migration is stopped half-way, the reads it serves fall back.',
          metric: props.migrationRunner.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
        'migrations-failed',
      );

    const webhooks = props.webhooks && webhookMetrics(props.webhooks, props.serviceName, settings.name);
    const add: AddAlarm = (id, alarmProps, runbook) => alarm(this.alarms, id, alarmProps, runbook);
    if (webhooks) webhookAlarms(add, name, webhooks);
    if (props.issuing) issuingAlarms(add, name, props.issuing);
    paymentAlarms(add, name, props.serviceName, settings.name);
    tableAlarms(add, name, metrics, limits.tableThrottledRequests);
    if (props.sendsEmail) mailAlarms(add, name, metrics);

    this.dashboard = operationsDashboard(this, 'Dashboard', {
      settings,
      metrics,
      table,
      routeFunctions,
      alarms: this.alarms,
      serviceName: props.serviceName,
      webhooks,
    });
  }
}
