import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Architecture, Code, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type BundleBatch, deployedFunctions } from './bundle-batch.ts';
import { deployedEntry } from './deployed-entry.ts';
import { BUNDLE_FILE, BUNDLE_HANDLER, FUNCTION_BUNDLE } from './function-bundle.ts';
import { acknowledgeWildcard } from './function-grants.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds a function's bundle with esbuild's API, in the synth's own process. NodejsFunction's bundling starts
 * `npx esbuild` once per function, 0.8 s of npm start-up each: a stage's synth (71 functions) took 2.5 min here, and
 * takes 45 s this way, with byte-identical bundles (and less again with every function built in one run,
 * infra/bundle-batch.ts). The entry is a property so that each function's asset has a
 * cache key of its own (CDK stages an asset once per key, and a function is not part of the key).
 */
class InProcessBundle implements ILocalBundling {
  /** A private field: not part of the cache key (CDK serialises the bundling options' own properties into it). */
  readonly #batch: BundleBatch;

  constructor(
    readonly entry: string,
    batch: BundleBatch,
  ) {
    this.#batch = batch;
  }

  tryBundle(outputDir: string): boolean {
    if (this.#batch.copy(this.entry, outputDir)) return true;
    // Throws on a build error: the synth fails naming the asset, and never falls back to Docker.
    buildSync({
      ...FUNCTION_BUNDLE,
      entryPoints: [this.entry],
      outfile: path.join(outputDir, BUNDLE_FILE),
      absWorkingDir: PROJECT_ROOT,
      logLevel: 'warning',
    });
    return true;
  }
}

/**
 * A function's code: its deployed entry (infra/deployed-entry.ts) bundled as FUNCTION_BUNDLE says, hashed by output;
 * with the other modules of `batch` in one run when it is one of them.
 */
export function bundledCode(handlerModule: string, batch: BundleBatch = deployedFunctions): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      local: new InProcessBundle(deployedEntry(handlerModule), batch),
      // Required by CDK's bundling options, never pulled: the local bundling above builds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
    },
  });
}

/**
 * What every function of the stack shares (the route functions and the migration runner):
 * runtime, architecture, code, tracing, and a log group and role of its own, made in `scope`. An
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
    code: bundledCode(handlerModule),
    handler: BUNDLE_HANDLER,
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    role,
    logGroup,
    tracing: settings.tracing ? Tracing.ACTIVE : undefined,
  };
}
