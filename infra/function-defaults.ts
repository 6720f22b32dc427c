import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { deployedEntry } from './deployed-entry.ts';
import { acknowledgeWildcard } from './function-grants.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** How every function of the stack is bundled (the route functions and the migration runner). */
const BUNDLING = {
  format: OutputFormat.ESM,
  minify: true,
  sourceMap: true,
  target: 'node22',
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require() for Node built-ins; ESM has none.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  // Bundle the AWS SDK too: resolving the runtime's copy measured 1.6x slower init.
  externalModules: [],
  bundleAwsSDK: true,
};

/**
 * What every function of the stack shares (the route functions and the migration runner):
 * runtime, architecture, bundling, tracing, and a log group and role of its own, made in `scope`. An
 * own role instead of the default one: the managed AWSLambdaBasicExecutionRole may write to
 * any log group; this one writes only to the function's own.
 */
export function functionDefaults(scope: Construct, settings: StageSettings, handlerModule: string) {
  // X-Ray active tracing for every function of a traced stage (route, webhook, migration runner).
  if (settings.tracing)
    acknowledgeWildcard(
      scope,
      'Resource::*',
      "X-Ray PutTraceSegments and PutTelemetryRecords take no resource: Lambda's tracing grants them on *.",
    );
  const logGroup = new LogGroup(scope, 'Logs', {
    retention: settings.logRetention,
    removalPolicy: removalPolicyOf(settings),
  });
  const role = new Role(scope, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grantWrite(role);
  return {
    entry: deployedEntry(handlerModule),
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    role,
    logGroup,
    bundling: BUNDLING,
    tracing: settings.tracing ? Tracing.ACTIVE : undefined,
  };
}
