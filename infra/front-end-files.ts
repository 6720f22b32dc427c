import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CfnElement, type Stack, Validations } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { API_PREFIX } from '#shared/api-prefix';
import { nagName } from './nag-names.ts';
import { type FrontEndName, type StageSettings, StageSettingsError } from './stages.ts';

/** The documentation's key prefix in the buckets (`api/v2`). */
const API_DOCS_PREFIX = API_PREFIX.replace(/^\//, '');

/** The placeholder pages a stage deploys where its file says `files: 'placeholder'` (dev). */
export const PLACEHOLDER_PAGES = fileURLToPath(new URL('./pages', import.meta.url));

/**
 * A front end's SPA files as the stage's settings name them: a directory (checked for an
 * index.html), the placeholder pages, or undefined for `'none'`: then the stack deploys no
 * SPA file, and a deploy leaves the bucket's files as the front end's own release left them.
 */
export function frontEndAssets(settings: StageSettings, name: FrontEndName): string | undefined {
  const { files } = settings.frontEnds[name];
  if (files === 'none') return undefined;
  const assetsPath = files === 'placeholder' ? path.join(PLACEHOLDER_PAGES, name) : files.path;
  if (!existsSync(path.join(assetsPath, 'index.html'))) {
    const from = settings.overrides.includes(`${name}Assets`) ? `-c ${name}Assets` : settings.file;
    throw new StageSettingsError(
      `stage ${settings.name}: frontEnds.${name}.files (${from}) "${assetsPath}" must be a directory of built files with an index.html (or 'none', or 'placeholder')`,
    );
  }
  return assetsPath;
}

export interface FrontEndFilesProps {
  /** The SPA's directory (frontEndAssets); undefined: the stack deploys no SPA file. */
  assets: string | undefined;
  /** The API documentation files (ApiDocs): their directory, keyed under api/v2/. */
  docs: { source: ISource; dir: string };
  bucket: IBucket;
  distribution: IDistribution;
  /** The deployment helper's logs (one helper function serves both front ends). */
  logGroup: ILogGroup;
}

/**
 * Uploads a front end's files into its bucket at every deploy and invalidates its
 * distribution. With an SPA, the SPA files and the API documentation go in one deployment
 * (a second one would prune the first's). Without one, only `api/v2/` is deployed and
 * pruned: whatever else the bucket holds (the SPA its own release put there) stays.
 */
export function deployFrontEndFiles(
  scope: Construct,
  id: string,
  { assets, docs, bucket, distribution, logGroup }: FrontEndFilesProps,
): BucketDeployment {
  const common = { destinationBucket: bucket, distribution, memoryLimit: 512, logGroup };
  if (assets === undefined) {
    return new BucketDeployment(scope, `${id}Docs`, {
      ...common,
      sources: [Source.asset(path.join(docs.dir, API_DOCS_PREFIX))],
      destinationKeyPrefix: `${API_DOCS_PREFIX}/`,
      distributionPaths: [`/${API_DOCS_PREFIX}/*`],
    });
  }
  return new BucketDeployment(scope, id, {
    ...common,
    sources: [Source.asset(assets), docs.source],
    distributionPaths: ['/*'],
  });
}

/**
 * BucketDeployment's upload function is one CDK-owned singleton at the stack's root (shared
 * by both front ends), so its findings are acknowledged there, on that construct only.
 */
export function acknowledgeDeploymentHelper(stack: Stack, buckets: IBucket[]): void {
  const wildcards = [
    ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'].map(
      (action) => `Action::${action}`,
    ),
    `Resource::${nagName(stack, `arn:${stack.partition}:s3:::cdk-hnb659fds-assets-${stack.account}-${stack.region}/*`)}`,
    ...buckets.map((bucket) => `Resource::<${stack.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/*`),
    // cloudfront:CreateInvalidation takes no resource narrower than *.
    'Resource::*',
  ];
  for (const helper of stack.node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    const acknowledge = (ruleId: string, reason: string) => Validations.of(helper).acknowledge({ id: ruleId, reason });
    acknowledge(
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "CDK's BucketDeployment helper (deploy time only, no request path) writes its logs with the basic execution role.",
    );
    for (const finding of wildcards) {
      acknowledge(
        `AwsSolutions-IAM5[${finding}]`,
        "CDK's BucketDeployment helper (deploy time only) copies the asset zip from the CDK assets bucket into the front-end buckets and invalidates their distributions.",
      );
    }
    acknowledge(
      'AwsSolutions-L1',
      "CDK's BucketDeployment helper runs on the runtime CDK pins for it (aws-cdk-lib 2.276.0).",
    );
  }
}
