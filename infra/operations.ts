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
/** SES puts an account under review at 5 % bounces and 0.1 % complaints (and pauses sending at 10 % and 0.5 %): alarm before review. */
export const SES_BOUNCE_RATE = 0.04;
export const SES_COMPLAINT_RATE = 0.0008;

/**
 * The webhooks' thresholds, the same in every stage (their traffic is the stage's own changes).
 * - The oldest undelivered message, above an hour for 15 minutes running: retries back off from
 *   30 s, so a message an hour old has failed about 7 times; a receiver down for an hour is worth
 *   knowing (the receivers are the organisation's own integrations), and a sending side that
 *   fails every attempt shows here first. 15 minutes: a retry that succeeds just past the hour
 *   does not page.
 * - The stream consumer more than 5 minutes behind the table in 2 of 3 periods of 5 minutes: a
 *   burst of changes (an import) that catches up does not page; a stuck or slow consumer does,
 *   long before the mapping gives its records up at 12 hours (infra/webhooks.ts).
 */
export const WEBHOOK_THRESHOLDS = {
  oldestPendingSeconds: 60 * 60,
  iteratorAgeMs: 5 * 60 * 1000,
} as const;

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
      const { reserved } = concurrencyOf(row, settings.name);
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

    // --- Webhooks (infra/webhooks.ts) -----------------------------------------------------
    const webhooks = props.webhooks && webhookMetrics(props.webhooks, props.serviceName, settings.name);
    if (webhooks) {
      const oneIn5Minutes = {
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      };
      alarm(
        this.alarms,
        'WebhookDeliveriesDead',
        {
          alarmName: name('webhook-deliveries-dead'),
          alarmDescription:
            'Webhook deliveries were given up (3 days of failed retries, or the receiver answered 410 Gone): those messages are not sent unless retried by hand.',
          metric: webhooks.deadDeliveries,
          ...oneIn5Minutes,
        },
        'webhook-deliveries-dead',
      );
      alarm(
        this.alarms,
        'WebhookDisabled',
        {
          alarmName: name('webhook-disabled'),
          alarmDescription:
            'The service turned a webhook subscription off (410 Gone, every delivery failed for 3 days, or the administrator it delivers for was removed or lost tickets:read or its events): it sends nothing until someone acts.',
          metric: webhooks.disabledWebhooks,
          ...oneIn5Minutes,
        },
        'webhook-disabled',
      );
      const hours = WEBHOOK_THRESHOLDS.oldestPendingSeconds / 3600;
      alarm(
        this.alarms,
        'WebhookOldestPendingAge',
        {
          alarmName: name('webhook-oldest-pending-age'),
          alarmDescription: `The oldest undelivered webhook message has waited more than ${hours} hour${hours === 1 ? '' : 's'} for 15 minutes, or the dispatcher, which reports that age every minute, has reported nothing for 15 minutes.`,
          metric: webhooks.oldestPendingAge,
          threshold: WEBHOOK_THRESHOLDS.oldestPendingSeconds,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 3,
          datapointsToAlarm: 3,
          // No reading is itself the failure: the dispatcher did not run.
          treatMissingData: TreatMissingData.BREACHING,
        },
        'webhook-oldest-pending-age',
      );
      alarm(
        this.alarms,
        'WebhookStreamIteratorAge',
        {
          alarmName: name('webhook-stream-iterator-age'),
          alarmDescription: `The webhooks' stream consumer ran more than ${WEBHOOK_THRESHOLDS.iteratorAgeMs / 60_000} minutes behind the table in 2 of 3 periods of 5 minutes: ticket changes reach their receivers late.`,
          metric: webhooks.iteratorAge,
          threshold: WEBHOOK_THRESHOLDS.iteratorAgeMs,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 3,
          datapointsToAlarm: 2,
        },
        'webhook-stream-iterator-age',
      );
      alarm(
        this.alarms,
        'WebhookStreamGivenUp',
        {
          alarmName: name('webhook-stream-given-up'),
          alarmDescription:
            "The table stream's mapping gave up on a batch of ticket changes (10 failed retries, or 12 hours old): no webhook message was recorded for them, and their pointers wait in the on-failure queue.",
          metric: webhooks.failedChanges,
          ...oneIn5Minutes,
        },
        'webhook-stream-given-up',
      );
      alarm(
        this.alarms,
        'WebhookStreamErrors',
        {
          alarmName: name('webhook-stream-errors'),
          alarmDescription:
            "The webhooks' stream consumer failed (unhandled error, timeout or failed start): its batch is retried, split in halves.",
          metric: webhooks.ticketChangesErrors,
          ...oneIn5Minutes,
        },
        'webhook-stream-errors',
      );
      alarm(
        this.alarms,
        'WebhookDispatcherErrors',
        {
          alarmName: name('webhook-dispatcher-errors'),
          alarmDescription:
            'The webhook dispatcher failed (unhandled error, timeout or failed start): the due retries wait for its next run.',
          metric: webhooks.dispatcherErrors,
          ...oneIn5Minutes,
        },
        'webhook-dispatcher-errors',
      );
    }

    // --- DynamoDB ----------------------------------------------------------------------
    alarm(
      this.alarms,
      'TableThrottles',
      {
        alarmName: name('table-throttled-requests'),
        alarmDescription: `At least ${limits.tableThrottledRequests} DynamoDB requests throttled in 5 minutes (on-demand: a hot partition or a traffic step above twice the previous peak).`,
        metric: metrics.tableThrottled,
        threshold: limits.tableThrottledRequests,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      },
      'table-throttled-requests',
    );
    alarm(
      this.alarms,
      'TableSystemErrors',
      {
        alarmName: name('table-system-errors'),
        alarmDescription: 'DynamoDB answered 500s (its own errors) in 2 of 3 periods of 5 minutes.',
        metric: metrics.tableSystemErrors,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      },
      'table-system-errors',
    );

    // --- SES (account level: one reputation per account and region) -------------------
    if (props.sendsEmail) {
      alarm(
        this.alarms,
        'SesBounceRate',
        {
          alarmName: name('ses-bounce-rate'),
          alarmDescription: `SES bounce rate at ${SES_BOUNCE_RATE * 100} % (review at 5 %, sending paused at 10 %).`,
          metric: metrics.bounceRate,
          threshold: SES_BOUNCE_RATE,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
        'ses-bounce-rate',
      );
      alarm(
        this.alarms,
        'SesComplaintRate',
        {
          alarmName: name('ses-complaint-rate'),
          alarmDescription: `SES complaint rate at ${SES_COMPLAINT_RATE * 100} % (review at 0.1 %, sending paused at 0.5 %).`,
          metric: metrics.complaintRate,
          threshold: SES_COMPLAINT_RATE,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
        'ses-complaint-rate',
      );
    }

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
