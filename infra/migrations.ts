import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { InvocationType, Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { deployedEntry } from './deployed-entry.ts';
import { arnOf, BUNDLING, FUNCTIONS_DIR } from './route-function.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A release runs its own data migrations (shared/use-cases/migrations/catalogue.ts): after
 * the table is updated, a trigger starts the runner (asynchronously: the deploy does not
 * wait), which runs the pending ones in order for up to 15 minutes and starts itself again
 * until they are done, each recorded in the table's ledger (`npm run migrations` shows it).
 * The trigger fires when the runner's code changes, which is when the catalogue gains a
 * migration. Reserved concurrency 1: one runner at a time (the ledger's leases hold anyway).
 */
export class MigrationRunner extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, { table, settings }: { table: ITableV2; settings: StageSettings }) {
    super(scope, id);
    const functionName = `${Stack.of(this).stackName}-migrations`;
    const logGroup = new LogGroup(this, 'Logs', {
      retention: settings.logRetention,
      removalPolicy: removalPolicyOf(settings),
    });
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      functionName,
      entry: deployedEntry(path.join(FUNCTIONS_DIR, 'maintenance/run-migrations.ts')),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      description: 'Runs the pending data migrations, then starts itself again until all are done',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 1024,
      timeout: Duration.minutes(15),
      // Async invocations that fail are retried twice by Lambda; the ledger keeps where it stopped.
      retryAttempts: 2,
      reservedConcurrentExecutions: 1,
      role,
      logGroup,
      environment: { TABLE_NAME: table.tableName, NODE_OPTIONS: '--enable-source-maps' },
      bundling: BUNDLING,
    });
    table.grantReadWriteData(this.function);
    // Its own ARN by name: referring to the function itself from its role's policy would be a cycle.
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [
          Stack.of(this).formatArn({
            service: 'lambda',
            resource: 'function',
            resourceName: functionName,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    new Trigger(this, 'AfterDeploy', {
      handler: this.function,
      invocationType: InvocationType.EVENT,
      executeAfter: [table],
    });
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arnOf(table, this)}/index/*]`,
      reason: "The backfills read any of the table's GSIs; the grant stays within this one table.",
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x, as the route functions (infra/route-function.ts).',
    });
  }
}
