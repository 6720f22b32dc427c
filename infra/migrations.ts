import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { InvocationType, Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { nagName } from './nag-names.ts';
import { functionDefaults, tableArnOf } from './route-function.ts';
import type { StageSettings } from './stages.ts';

/**
 * Maintenance, not a route: its backfills Scan the table, so it lives with the other maintenance
 * commands in bin/maintenance/, and no module under shared/ or functions/ does.
 */
const RUNNER_HANDLER = fileURLToPath(new URL('../bin/maintenance/run-migrations.ts', import.meta.url));

/** The runner's function name: `npm run migrations` and preflight reach a stage's runner by it (stack `Ticketing-<stage>`, infra/app.ts). */
export const migrationRunnerName = (stage: string): string => `Ticketing-${stage}-migrations`;

/**
 * A release runs its own data migrations (bin/maintenance/migrations/catalogue.ts): after
 * the table is updated, a trigger starts the runner (asynchronously: the deploy does not
 * wait), which runs the pending ones in order for up to 15 minutes and starts itself again
 * until they are done, each recorded in the table's ledger (`npm run migrations` shows it).
 * The trigger fires when the runner's code changes, which is when the catalogue gains a
 * migration. Reserved concurrency 1: one runner at a time (the ledger's leases hold anyway).
 */
export class MigrationRunner extends Construct {
  readonly function: NodejsFunction;

  constructor(
    scope: Construct,
    id: string,
    { table, after, settings }: { table: ITableV2; after: Construct; settings: StageSettings },
  ) {
    super(scope, id);
    const functionName = migrationRunnerName(settings.name);
    this.function = new NodejsFunction(this, 'Function', {
      ...functionDefaults(this, settings, RUNNER_HANDLER),
      functionName,
      description: 'Runs the pending data migrations, then starts itself again until all are done',
      memorySize: 1024,
      timeout: Duration.minutes(15),
      // Async invocations that fail are retried twice by Lambda; the ledger keeps where it stopped.
      retryAttempts: 2,
      reservedConcurrentExecutions: 1,
      environment: { TABLE_NAME: table.tableName, NODE_OPTIONS: '--enable-source-maps' },
    });
    table.grantReadWriteData(this.function);
    // Its own ARN by name: referring to the function itself from its role's policy would be a cycle. Its versions
    // too: the trigger invokes the deployed version, and a run continues as the version it is (invokedFunctionArn).
    const self = Stack.of(this).formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.function.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [self, `${self}:*`] }),
    );
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagName(this, `${self}:*`)}]`,
      reason: 'Its own versions only: a run goes on as the version the deploy started.',
    });
    new Trigger(this, 'AfterDeploy', {
      handler: this.function,
      invocationType: InvocationType.EVENT,
      executeAfter: [after],
    });
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${tableArnOf(table, this)}/index/*]`,
      reason: "The backfills read any of the table's GSIs; the grant stays within this one table.",
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
    });
  }
}
