import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PAID_ORDER_FILTER } from '#shared/selling/data/paid-order-filter';
import { jobs } from '#shared/job-grants';
import { issuingConcurrency } from './concurrency.ts';
import { functionDefaults } from './function-defaults.ts';
import { grantEmailSending, grantTableAccess } from './function-grants.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/**
 * How the paid orders reach the issuing consumer (the event source mapping on the table's stream), and why:
 * - only a checkout's order entering `pending`, paid or free (PAID_ORDER_FILTER, Lambda's event filter: the other
 *   records of the stream are dropped before any invocation, at no charge to the function);
 * - from TRIM_HORIZON: an order claimed between the stream's creation and the mapping's is not skipped;
 * - no batching window: a buyer waits for the tickets (Lambda polls a shard 4 times a second), and batches of up to
 *   100, each order of a batch issued beside the others (ORDERS_AT_ONCE, issue-paid-orders.ts);
 * - parallelization factor 10, the most Lambda allows: up to 10 batches of one shard at once (one order's records
 *   still in order). 600 paid orders a second, each ~0.5 s to issue, keep ~300 orders in flight: a stage warmed
 *   for the rush has a stream shard per table partition (about one per 1,000 write units of warm throughput:
 *   110 or more), so 10 a shard reaches the reservation (infra/sale-capacity.ts) long before the shards run out;
 * - a failing batch is split in two until the failing order is alone (ReportBatchItemFailures names it, so the
 *   orders before it are not issued again) and retried 10 times; then, or at 1 hour of age, its pointer goes to the
 *   on-failure queue and the shard moves on: a poison record never holds the shard. The order stays `pending` with
 *   its payment, and the every-minute sweep of stuck orders finishes it (sweep-stuck-orders.ts, 2 minutes after
 *   its claim): each paid order's tickets still issued once, or its payment refunded.
 */
export const PAID_ORDER_MAPPING = {
  startingPosition: StartingPosition.TRIM_HORIZON,
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(0),
  parallelizationFactor: 10,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
  retryAttempts: 10,
  maxRecordAge: Duration.hours(1),
} as const;

/** A batch of 100 orders, 10 at once, each ~0.5 s: ~5 s; a minute for a table slowed to a crawl (retried after it). */
export const ISSUING_TIMEOUT = Duration.seconds(60);

export interface PaidOrderIssuingProps {
  settings: StageSettings;
  table: ITableV2;
  environment: Record<string, string>;
  /** The stage's Stripe secret: an order whose tickets are gone is refunded (checkout-payment.ts). */
  stripeSecret: ISecret;
  /** Where the confirmation mail links to. */
  portalUrl: string;
}

/**
 * The paid orders' issue behind the Stripe webhook (shared/README.md "Issuing behind the webhook"): the consumer
 * (functions/jobs/issue-paid-orders.ts) on the table's stream, its mapping (PAID_ORDER_MAPPING) and the on-failure
 * queue of the batches it gave up on (kept 14 days; the sweep issues their orders meanwhile). Its grant is
 * shared/job-grants.ts `jobs['issue-paid-orders']` (what the webhook's row held while it issued), the Stripe secret
 * (a refund), mail (the confirmation) and the stream. Reserved concurrency: the stage's on-sale's
 * (infra/concurrency.ts), none on a stage not sized for one.
 */
export class PaidOrderIssuing extends Construct {
  readonly consumer: LambdaFunction;
  readonly givenUp: Queue;

  constructor(scope: Construct, id: string, props: PaidOrderIssuingProps) {
    super(scope, id);
    const { settings, table, environment, stripeSecret, portalUrl } = props;
    const home = new Construct(this, 'Consumer');
    const entry = fileURLToPath(new URL('../functions/jobs/issue-paid-orders.ts', import.meta.url));
    this.consumer = new LambdaFunction(home, 'Function', {
      ...functionDefaults(home, settings, entry),
      description: "Issues the tickets of the orders the Stripe webhook recorded paid (the table stream's)",
      timeout: ISSUING_TIMEOUT,
      reservedConcurrentExecutions: issuingConcurrency(settings),
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    grantTableAccess(this.consumer, table, jobs['issue-paid-orders']);
    grantEmailSending(home, this.consumer, settings.emailFrom, portalUrl);
    // As a payment row's (infra/route-function.ts `bindPayments`): the one secret, by name and its suffix.
    this.consumer.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [`${stripeSecret.secretArn}-??????`],
      }),
    );
    this.consumer.addEnvironment('STRIPE_SECRET', stripeSecret.secretName);
    Validations.of(home).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
    });
    this.givenUp = new Queue(this, 'GivenUp', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: removalPolicyOf(settings),
    });
    Validations.of(this.givenUp).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the dead end: the issuing mapping's on-failure destination, pointers to the paid orders it gave up on (the sweep issues them).",
    });
    this.consumer.addEventSourceMapping('TableStream', {
      eventSourceArn: table.tableStreamArn,
      ...PAID_ORDER_MAPPING,
      filters: [FilterCriteria.filter(PAID_ORDER_FILTER)],
      onFailure: new SqsDlq(this.givenUp),
    });
    table.grantStreamRead(this.consumer);
  }
}
