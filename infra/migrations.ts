import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { InvocationType, Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { functionDefaults } from './function-defaults.ts';
import { grantTableAccess } from './function-grants.ts';
import { jobs } from '#shared/job-grants';
import type { StageSettings } from './stages.ts';

/** A deployed job, not a route: beside the route handlers, with the webhooks' (functions/jobs/). */
const RUNNER_HANDLER = fileURLToPath(new URL('../functions/jobs/run-migrations.ts', import.meta.url));

/** The runner's function name: `npm run migrations` and preflight reach a stage's runner by it (stack `Ticketing-<stage>`, infra/app.ts). */
export const migrationRunnerName = (stage: string): string => `Ticketing-${stage}-migrations`;

/**
 * A release runs its own data migrations (shared/migrations/use-cases/catalogue.ts): once the
 * release is live, a trigger starts the runner (asynchronously: the deploy does not wait), which
 * runs the pending ones in order for up to 15 minutes and starts itself again until they are
 * done, each recorded in the table's ledger (`npm run migrations` shows it). The trigger fires
 * when the runner's code changes, which is when the catalogue gains a migration.
 *
 * "Live" is `after`: every route group stack (each ends only when its canaries have finished:
 * CloudFormation waits for CodeDeploy), the webhooks and the operations stack. Before that, old
 * code still serves most requests and can write the old shape behind a backfill that marked
 * itself done. Hence the rule a migration follows (README "Data migrations"): expand, migrate,
 * contract one release later.
 *
 * No reserved concurrency: the ledger's lease keeps one run at a time, a reservation would fail
 * a new account's first deploy (infra/concurrency.ts), and a reservation of 1 throttles the
 * run's own continuation (counted by the account's throttles alarm). A failed run is retried
 * twice by Lambda, then fails its `migrations-failed` alarm, and the next preflight refuses to
 * deploy past it.
 */
export class MigrationRunner extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, { table, settings }: { table: ITableV2; settings: StageSettings }) {
    super(scope, id);
    const functionName = migrationRunnerName(settings.name);
    this.function = new LambdaFunction(this, 'Function', {
      ...functionDefaults(this, settings, RUNNER_HANDLER),
      functionName,
      description: 'Runs the pending data migrations, then starts itself again until all are done',
      memorySize: 1024,
      timeout: Duration.minutes(15),
      // Async invocations that fail are retried twice by Lambda; the ledger keeps where it stopped.
      retryAttempts: 2,
      environment: { TABLE_NAME: table.tableName, NODE_OPTIONS: '--enable-source-maps' },
    });
    grantTableAccess(this.function, table, jobs.migrations);
    // Its own ARN by name: referring to the function itself from its role's policy would be a cycle. Unqualified
    // only: a run continues through the function's name ($LATEST), never a version a later deploy may delete.
    const self = Stack.of(this).formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [self] }));
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
    });
  }

  /** Starts the runner once every one of `after` is deployed (the release is live). */
  runAfter(after: readonly Construct[]): Trigger {
    return new Trigger(this, 'AfterDeploy', {
      handler: this.function,
      invocationType: InvocationType.EVENT,
      executeAfter: [...after],
    });
  }
}
