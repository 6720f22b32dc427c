import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { jobs } from '#shared/job-grants';
import { functionDefaults } from './function-defaults.ts';
import { grantEmailSending, grantTableAccess } from './function-grants.ts';
import type { StageSettings } from './stages.ts';

/** Long enough for a busy minute's lapses; the job stops starting minutes 10 s before it (functions/jobs/release-reservations.ts). */
export const LAPSER_TIMEOUT = Duration.seconds(60);

export interface ReservationsProps {
  settings: StageSettings;
  table: ITableV2;
  environment: Record<string, string>;
  /** The stage's Stripe secret: a lapsed checkout's PaymentIntent is cancelled (shared/selling/use-cases/checkout-intent.ts). */
  stripeSecret: ISecret;
  /** Where the confirmation mail of a paid checkout the sweep finishes links to. */
  portalUrl: string;
}

/**
 * The reservations' lapsing job (functions/jobs/release-reservations.ts), every minute: an
 * unpaid reservation whose minutes ran out gives its tickets back with no operator, within a
 * minute; then the sweep of orders a dead function left `pending` (a box-office sale undone, a paid checkout
 * finished: shared/selling/use-cases/sweep-stuck-orders.ts). Its grant is shared/job-grants.ts
 * `jobs['release-reservations']` on the table (GSI6, the orders by status; GSI1, as a ticket's issue reads), the
 * Stripe secret (a lapsed checkout's PaymentIntent is cancelled, a finished one's late payment may be refunded) and
 * mail from the stage's sender (a finished checkout's confirmation). A missed tick loses nothing: the next run starts
 * where the last one stopped (its checkpoint), and overlapping runs are safe (each lapse and each sweep step is
 * conditional).
 */
export class Reservations extends Construct {
  readonly lapser: LambdaFunction;
  readonly schedule: Rule;

  constructor(
    scope: Construct,
    id: string,
    { settings, table, environment, stripeSecret, portalUrl }: ReservationsProps,
  ) {
    super(scope, id);
    const home = new Construct(this, 'Lapser');
    const entry = fileURLToPath(new URL('../functions/jobs/release-reservations.ts', import.meta.url));
    this.lapser = new LambdaFunction(home, 'Function', {
      ...functionDefaults(home, settings, entry),
      description: 'Lapses the reservations whose minutes ran out: their tickets on sale again',
      timeout: LAPSER_TIMEOUT,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    grantTableAccess(this.lapser, table, jobs['release-reservations']);
    grantEmailSending(home, this.lapser, settings.emailFrom, portalUrl);
    // As a payment row's (infra/route-function.ts `bindPayments`): the one secret, by name and its suffix.
    this.lapser.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [`${stripeSecret.secretArn}-??????`],
      }),
    );
    this.lapser.addEnvironment('STRIPE_SECRET', stripeSecret.secretName);
    Validations.of(home).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
    });
    this.lapser.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    this.schedule = new Rule(this, 'EveryMinute', {
      description: 'Runs the reservations lapsing job',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaTarget(this.lapser, { retryAttempts: 0, maxEventAge: Duration.minutes(1) })],
    });
  }
}
