import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WEBHOOK_CHANGE_FILTER } from '#shared/webhooks/data/webhook-change-filter';
import { jobs } from '#shared/job-grants';
import { functionDefaults } from './function-defaults.ts';
import { grantEmailSending, grantTableAccess } from './function-grants.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';
import { grantWebhookSecretsKey } from './webhook-secrets-key.ts';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';

/** Not routes (README "Webhooks"): jobs, whose handlers live beside the route handlers, in functions/jobs/. */
const handlerModule = (name: string) => fileURLToPath(new URL(`../functions/jobs/${name}.ts`, import.meta.url));

/**
 * How the table stream's ticket changes reach the consumer (the event source mapping), and why:
 * - from TRIM_HORIZON: the mapping starts at the oldest record the stream holds, so a change
 *   written between the stream's creation and the mapping's (the same deploy) is not skipped;
 * - batches of up to 100 changes, invoked with what each poll of the shard found: no batching window. Lambda polls a
 *   stream shard 4 times a second (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html), so a change waits
 *   about 0.25 s to be read; gathering it for a second more would put a healthy receiver past 2 s behind a batch whose
 *   receiver hangs (functions/jobs/README.md, "Isolated from the first moment");
 * - 4 batches per shard at once: a slow receiver holds up a quarter of the shard, not all of it,
 *   and Lambda still hands one partition key's records (one ticket's changes) to one batch at a
 *   time, in order;
 * - a batch that fails is split in two until the failing change is alone (bisecting does not
 *   count against the retries), and the consumer names the first change it could not record
 *   (ReportBatchItemFailures), so what was recorded is not retried;
 * - 10 retries: enough to outlast throttling or a deploy's bad minutes, few enough that a change
 *   the code cannot read (a poison record) stops blocking its part of the shard within minutes;
 * - 12 hours of age at most: the stream keeps a record 24 hours, and a record the mapping gives
 *   up on is sent to the on-failure queue as a pointer (shard, sequence numbers), which can be
 *   read back from the stream only while the stream still holds it. At 12 hours that leaves
 *   12 to replay it; at 24 the mapping would race the stream's trimming, and a trimmed record
 *   is gone without any pointer.
 */
export const TICKET_CHANGE_MAPPING = {
  startingPosition: StartingPosition.TRIM_HORIZON,
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(0),
  parallelizationFactor: 4,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
  retryAttempts: 10,
  maxRecordAge: Duration.hours(12),
} as const;

/**
 * The stream consumer's timeout. A batch's first attempts, each subscription's apart, all end within
 * 1 s (shared/webhooks/services/webhook-settings.ts firstAttemptsMs), each recorded by one conditional write:
 * a batch takes its reads, that second and its writes, whatever the receivers do. It starts no first
 * attempt in its last 30 s (functions/jobs/ticket-changes.ts), a margin for a table slowed to a crawl:
 * those deliveries are recorded due and the dispatcher sends them. Were it to time out anyway, the
 * batch is retried: what was recorded is not sent again, what was in flight is (the same
 * webhook-id): a timeout delays or repeats messages, it loses none.
 */
export const TICKET_CHANGES_TIMEOUT = Duration.minutes(5);

/**
 * Named, as the migration runner is, so `npm run webhooks:replay -- --stage <name>` finds it, and
 * through its stream mapping's on-failure destination, the queue. The queue itself has no fixed
 * name: it is retained with the stage's data, and a fixed name would fail the next create of the
 * stage ("already exists").
 */
export const ticketChangesFunctionName = (stage: string): string => `Ticketing-${stage}-webhook-ticket-changes`;

/**
 * The dispatcher's timeout: it works until 20 s before it (functions/jobs/dispatch.ts), a last
 * round of 10-second attempts included, and runs every minute, so consecutive runs overlap by
 * a few seconds at most.
 */
export const DISPATCHER_TIMEOUT = Duration.seconds(75);

export interface WebhooksProps {
  settings: StageSettings;
  /** The stage's table (its own or a restored one, infra/table.ts stageTable), with its stream. */
  table: ITableV2;
  /** What shared/config.ts checks when any function starts (STAGE, JWT_PUBLIC_KEYS, POWERTOOLS_SERVICE_NAME, ...). */
  environment: Record<string, string>;
  /** The key sealing the signing secrets: both functions sign (infra/webhook-secrets-key.ts). */
  secretsKey: ISecret;
  /** PORTAL_URL, as the mailing routes get it (the mail to a disabled webhook's creator uses none today). */
  portalUrl: string;
}

/**
 * The webhooks' side of the stage (README "Webhooks"), outside any request:
 * - `ticketChanges`, the table stream's consumer (functions/jobs/ticket-changes.ts): each ticket
 *   change becomes one recorded delivery per subscription that wants it, attempted at once;
 * - `failedChanges`, the mapping's on-failure queue: pointers to the stream records the consumer
 *   could not record after its retries, kept 14 days (they alarm: a change is never dropped
 *   silently);
 * - `dispatcher` (functions/jobs/dispatch.ts), every minute: the due retries, then the age of the
 *   oldest undelivered message (a metric).
 * Both functions read and write the table, each exactly the actions its grant in shared/routes.ts `jobs` names, and may mail a disabled webhook's creator; neither
 * signs tokens nor reaches Cognito or Secrets Manager. They call receivers on the internet
 * directly: a Lambda outside a VPC has outbound access, and the sender itself refuses
 * non-public addresses. No WEBHOOK_* setting is set: the defaults are the deployed contract
 * (shared/webhooks/services/webhook-settings.ts), and WEBHOOK_LOCAL_RECEIVERS=allow is for `npm start` only.
 * Alarms and dashboard: infra/operations.ts.
 */
export class Webhooks extends Construct {
  readonly ticketChanges: LambdaFunction;
  readonly dispatcher: LambdaFunction;
  readonly failedChanges: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, { settings, table, environment, secretsKey, portalUrl }: WebhooksProps) {
    super(scope, id);
    const webhookFunction = (
      functionId: string,
      handler: 'ticket-changes' | 'dispatch',
      props: { description: string; timeout: Duration; functionName?: string },
    ): LambdaFunction => {
      const home = new Construct(this, functionId);
      const fn = new LambdaFunction(home, 'Function', {
        ...functionDefaults(home, settings, handlerModule(handler)),
        ...props,
        // Attempts mostly wait on their receivers, 10 at once: half a route function's memory (and CPU) for TLS
        // and signing. Not yet measured under load: timeouts would show it short (the errors alarms).
        memorySize: 512,
        environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
      });
      grantTableAccess(fn, table, jobs[handler]);
      grantEmailSending(home, fn, settings.emailFrom, portalUrl);
      grantWebhookSecretsKey(fn, secretsKey);
      Validations.of(home).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
      });
      return fn;
    };

    this.ticketChanges = webhookFunction('TicketChanges', 'ticket-changes', {
      description: "Turns the table stream's ticket changes into webhook deliveries and makes their first attempts",
      timeout: TICKET_CHANGES_TIMEOUT,
      functionName: ticketChangesFunctionName(settings.name),
    });
    this.failedChanges = new Queue(this, 'FailedChanges', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: removalPolicyOf(settings),
    });
    Validations.of(this.failedChanges).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the dead end: the stream mapping's on-failure destination, holding pointers to the records it gave up on; its messages alarm (infra/operations.ts).",
    });
    // The mapping's own id, not DynamoEventSource's (named after the table): a stage switched to a
    // restored table keeps one mapping, moved to the new stream (CloudFormation replaces it).
    this.ticketChanges.addEventSourceMapping('TableStream', {
      eventSourceArn: table.tableStreamArn,
      ...TICKET_CHANGE_MAPPING,
      filters: [FilterCriteria.filter(WEBHOOK_CHANGE_FILTER)],
      onFailure: new SqsDlq(this.failedChanges),
    });
    table.grantStreamRead(this.ticketChanges);

    this.dispatcher = webhookFunction('Dispatcher', 'dispatch', {
      description: 'Sends the webhook deliveries due for a retry, and publishes the age of the oldest undelivered one',
      timeout: DISPATCHER_TIMEOUT,
    });
    // A tick that could not run is worth nothing a minute later: the next one comes. No reserved
    // concurrency: runs overlap only by seconds (two at most: one a minute, 75 s each), overlapping
    // runs are safe (an attempt is claimed by a conditional write), and a reservation of 1 would
    // throttle the overlapping start into a skipped minute (and cannot be made in dev, infra/concurrency.ts).
    this.dispatcher.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    this.schedule = new Rule(this, 'EveryMinute', {
      description: 'Runs the webhook dispatcher',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(this.dispatcher, { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });
  }
}
