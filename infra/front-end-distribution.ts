import { CfnOutput, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  type Function as CloudFrontFunction,
  FunctionEventType,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  type ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { AaaaRecord, ARecord, type IHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import type { ApiDocs } from './api-docs.ts';
import { constructId } from './construct-id.ts';
import { deployFrontEndFiles, frontEndAssets } from './front-end-files.ts';
import { fileBehaviour, PRIVATE_BUCKET } from './private-files.ts';
import type { FrontEndName, StageSettings } from './stages.ts';

/** What both front ends share, made once by FrontEnds (infra/front-ends.ts). */
export interface FrontEndParts {
  settings: StageSettings;
  /** The HTTP API's execute-api host name. */
  apiDomain: string;
  /** The origin-verify header's value CloudFront sends to the API. */
  originVerifyHeader: string;
  webAclArn: string;
  logBucket: Bucket;
  /** The BucketDeployment helper's logs (one helper function serves both front ends). */
  deploymentLogs: LogGroup;
  spaFallback: CloudFrontFunction;
  viewerAddress: CloudFrontFunction;
  /** Each front end's security headers (their CSPs differ: the portal loads Stripe.js). */
  headers: Record<FrontEndName, ResponseHeadersPolicy>;
  /** The API documentation files and their behaviours (infra/api-docs.ts). */
  docs: ApiDocs;
  certificate?: ICertificate;
  zone?: IHostedZone;
}

/** One front end: its bucket, distribution, optional custom domain and deployed files. */
export class FrontEnd extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<custom domain>`, else `https://<distribution>.cloudfront.net` (a deploy-time token). */
  readonly origin: string;

  constructor(scope: Construct, id: string, name: FrontEndName, parts: FrontEndParts) {
    super(scope, id);
    const { settings } = parts;
    const { domainName } = settings.frontEnds[name];
    const assets = frontEndAssets(settings, name);

    this.bucket = new Bucket(this, 'Files', {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: parts.logBucket,
      serverAccessLogsPrefix: `s3/${name}/`,
      // The files are a build output (the stage's own release, or the stack's deployment).
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // One origin object for the files and the docs behaviours: one origin and one OAC.
    const files = S3BucketOrigin.withOriginAccessControl(this.bucket);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `ticketing-${settings.name} ${name} front end`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        ...fileBehaviour(files, parts.headers[name]),
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: parts.spaFallback }],
      },
      additionalBehaviors: {
        // The API documentation files from the bucket: listed first, CloudFront matches behaviours in order.
        ...parts.docs.behaviours(files),
        // The API on the front end's own origin: nothing cached, every method, the viewer's
        // headers, cookies and query strings forwarded, except Host (API Gateway needs its own).
        '/api/*': {
          origin: new HttpOrigin(parts.apiDomain, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
            customHeaders: { [ORIGIN_VERIFY_HEADER]: parts.originVerifyHeader },
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: parts.viewerAddress }],
        },
      },
      domainNames: domainName ? [domainName] : undefined,
      certificate: domainName ? parts.certificate : undefined,
      // Applies to a custom domain's certificate; *.cloudfront.net has CloudFront's own policy.
      minimumProtocolVersion: domainName ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: HttpVersion.HTTP2_AND_3,
      webAclId: parts.webAclArn,
      enableLogging: true,
      logBucket: parts.logBucket,
      logFilePrefix: `cloudfront/${name}/`,
      priceClass: PriceClass.PRICE_CLASS_100,
    });
    this.origin = `https://${domainName ?? this.distribution.distributionDomainName}`;

    if (domainName && parts.zone) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasA', { zone: parts.zone, recordName: domainName, target });
      new AaaaRecord(this, 'AliasAaaa', { zone: parts.zone, recordName: domainName, target });
    }

    deployFrontEndFiles(this, 'Deploy', {
      assets,
      docs: parts.docs,
      bucket: this.bucket,
      distribution: this.distribution,
      logGroup: parts.deploymentLogs,
    });

    const acknowledge = (ruleId: string, reason: string) => Validations.of(this).acknowledge({ id: ruleId, reason });
    acknowledge('AwsSolutions-CFR1', 'Staff and customers are worldwide; no geographic restriction applies.');
    if (!domainName) {
      acknowledge(
        'AwsSolutions-CFR4',
        'No custom domain given for this stage: the *.cloudfront.net certificate is used (TLS 1.2 minimum applies with a domain).',
      );
    }

    const outputs = constructId(name);
    new CfnOutput(Stack.of(this), `${outputs}Url`, {
      value: this.origin,
      description: `The ${name} front end (API under /api/v2)`,
    });
    new CfnOutput(Stack.of(this), `${outputs}DistributionId`, { value: this.distribution.distributionId });
    new CfnOutput(Stack.of(this), `${outputs}Bucket`, { value: this.bucket.bucketName });
  }
}
