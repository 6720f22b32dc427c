import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CfnElement, type Stack, Validations } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { type FrontEndName, type StageSettings, StageSettingsError } from './stages.ts';

/** The placeholder pages a stage deploys when no built SPA is given (`-c adminAssets=<dir>`). */
export const PLACEHOLDER_PAGES = fileURLToPath(new URL('./pages', import.meta.url));

/** A front end's SPA files: `-c <name>Assets=<dir>`, else its placeholder pages; checked for an index.html. */
export function frontEndAssets(settings: StageSettings, name: FrontEndName): string {
  const { assetsPath = path.join(PLACEHOLDER_PAGES, name) } = settings.frontEnds[name];
  if (!existsSync(path.join(assetsPath, 'index.html'))) {
    throw new StageSettingsError(`${name}Assets "${assetsPath}" must be a directory of built files with an index.html`);
  }
  return assetsPath;
}

export interface FrontEndFilesProps {
  /** The SPA's directory (frontEndAssets). */
  assets: string;
  /** The API documentation files (ApiDocs.source), keyed under api/v2/. */
  docs: ISource;
  bucket: IBucket;
  distribution: IDistribution;
  /** The deployment helper's logs (one helper function serves both front ends). */
  logGroup: ILogGroup;
}

/**
 * Uploads a front end's files into its bucket at every deploy and invalidates its
 * distribution. The SPA files and the API documentation go in one deployment: a second
 * one would prune the first's.
 */
export function deployFrontEndFiles(
  scope: Construct,
  id: string,
  { assets, docs, bucket, distribution, logGroup }: FrontEndFilesProps,
): BucketDeployment {
  return new BucketDeployment(scope, id, {
    sources: [Source.asset(assets), docs],
    destinationBucket: bucket,
    distribution,
    distributionPaths: ['/*'],
    memoryLimit: 512,
    logGroup,
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
    'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
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
