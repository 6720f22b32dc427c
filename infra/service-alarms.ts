import { type Alarm, type AlarmProps, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { stageMetrics, webhookMetrics } from './operations-metrics.ts';
import type { RunbookEntry } from './runbook.ts';

/**
 * The stage's alarms on the services beside the routes: the webhooks, the table and SES
 * (infra/operations.ts adds them to the stage's topic and dashboard).
 */

/** Adds one alarm to the stage's list, with its runbook entry (Operations' `alarm`). */
export type AddAlarm = (id: string, props: AlarmProps, runbook: RunbookEntry) => Alarm;
type Name = (suffix: string) => string;
type StageMetrics = ReturnType<typeof stageMetrics>;

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

/** The webhooks' alarms (infra/webhooks.ts). */
export function webhookAlarms(add: AddAlarm, name: Name, webhooks: ReturnType<typeof webhookMetrics>): void {
  const oneIn5Minutes = {
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  };
  add(
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
  add(
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
  add(
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
  add(
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
  add(
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
  add(
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
  add(
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

/** DynamoDB: throttles (on-demand: a hot partition) and its own errors. */
export function tableAlarms(add: AddAlarm, name: Name, metrics: StageMetrics, throttledRequests: number): void {
  add(
    'TableThrottles',
    {
      alarmName: name('table-throttled-requests'),
      alarmDescription: `At least ${throttledRequests} DynamoDB requests throttled in 5 minutes (on-demand: a hot partition or a traffic step above twice the previous peak).`,
      metric: metrics.tableThrottled,
      threshold: throttledRequests,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    },
    'table-throttled-requests',
  );
  add(
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
}

/** SES reputation (account level: one reputation per account and region, shared by the stages in it). */
export function mailAlarms(add: AddAlarm, name: Name, metrics: StageMetrics): void {
  add(
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
  add(
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
