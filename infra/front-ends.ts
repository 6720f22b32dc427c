import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Aws,
  type CfnElement,
  CfnOutput,
  CfnRule,
  Duration,
  Fn,
  RemovalPolicy,
  SecretValue,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AaaaRecord, ARecord, HostedZone, type IHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { VIEWER_ADDRESS_HEADER } from '#shared/http/client-address';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { ApiDocs } from './api-docs.ts';
import { type FrontEndName, type StageSettings, StageSettingsError } from './stages.ts';

/** The placeholder pages a stage deploys when no built SPA is given (`-c adminAssets=<dir>`). */
export const PLACEHOLDER_PAGES = fileURLToPath(new URL('./pages', import.meta.url));

/**
 * SPA fallback on the default (S3) behaviour only: a path whose last segment has no dot is
 * a client-side route, so the app shell answers it. Not done with error responses, which
 * apply to every behaviour and would turn the API's 403/404 problem answers into HTML.
 * A CloudFront Function (JS 2.0 runtime), kept as source text so a test can run it.
 */
export const SPA_FALLBACK_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) request.uri = '/index.html';
  return request;
}`;

/**
 * On `/api/*` at viewer request: the viewer's address for the API's per-client login limits
 * (shared/http/client-address.ts), overwriting whatever the viewer sent in that header.
 */
export const VIEWER_ADDRESS_FUNCTION = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

/**
 * Rules of the AWS common rule set that only count (logged, not blocked), because the API's
 * own traffic trips them: bodies above 8 KB (photo uploads, bulk bodies; the API answers 413
 * itself), SVG waiver signatures (markup in a JSON body; the API sanitises them), and loopback
 * URLs in `redirect_uri` / `return_to` (dev's Vite origins; the API fetches no given URL).
 */
export const COMMON_RULES_COUNTED = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericRFI_BODY',
  'GenericRFI_QUERYARGUMENTS',
];

/** Requests per 5 minutes and client IP on the login and password routes, across both front ends. */
export const LOGIN_RATE_LIMIT = 100;

/**
 * The routes the WAF rate-limits per IP: the public rows of the login areas (`/auth/...`,
 * and `PUT /my-account`, the customers' login) plus every password route (change, forgot,
 * reset). Derived from the route table, so a new login route is covered when it is added.
 */
export function rateLimitedRoutes(rows: readonly RouteRow[]): RouteRow[] {
  const loginArea = (row: RouteRow) => row.path.startsWith('/auth/') || row.path === '/my-account';
  return rows.filter((row) => (row.auth.kind === 'public' && loginArea(row)) || row.path.includes('password'));
}

/**
 * Applies `urls` (a function of literal origins, e.g. shared/auth/oidc.ts's) to origins that
 * may be deploy-time tokens: each token is swapped for a stand-in URL first and back after,
 * so the shared function's URL parsing never sees a token.
 */
export function withTokenOrigins(origins: readonly string[], urls: (origins: string[]) => string[]): string[] {
  const standIns = origins.map((origin, i) =>
    Token.isUnresolved(origin) ? `https://origin-${i}-stand-in.invalid` : origin,
  );
  return urls(standIns).map((url) =>
    standIns.reduce((out, standIn, i) => (standIn === origins[i] ? out : out.split(standIn).join(origins[i]!)), url),
  );
}

export interface FrontEndsProps {
  settings: StageSettings;
  api: IHttpApi;
  routes: readonly RouteRow[];
}

/**
 * The stage's two front ends (admin SPA, customer portal), each one CloudFront origin:
 * static files from a private bucket, and `/api/*` forwarded to the HTTP API, so the auth
 * cookie is first-party. Shared between them: the origin-verify secret CloudFront adds as
 * a header (the functions refuse requests without it), the WAF web ACL, the SPA fallback,
 * the security headers and the access-log bucket.
 */
export class FrontEnds extends Construct {
  readonly admin: FrontEnd;
  readonly portal: FrontEnd;
  /** JSON `{ current, previous }`: CloudFront sends `current`; the functions accept both. */
  readonly originVerifySecret: Secret;
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, { settings, api, routes }: FrontEndsProps) {
    super(scope, id);
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.originVerifySecret = new Secret(this, 'OriginVerify', {
      description: `ticketing-${settings.name}: value of the ${ORIGIN_VERIFY_HEADER} header CloudFront adds to /api/* (README: Deploying, rotation)`,
      // Only `current` at creation; a rotation writes both keys (README).
      generateSecretString: {
        secretStringTemplate: '{}',
        generateStringKey: 'current',
        passwordLength: 48,
        excludePunctuation: true,
      },
      removalPolicy,
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by the README runbook (two deploys, current and previous accepted); an automatic rotation would need a deploy of the stack it cannot run.',
    });
    // CloudFront's header is a dynamic reference, re-read only when the template changes: a
    // rotation deploys with `-c originVerifyVersion=<version id>`, which pins it to that
    // version. The functions read the secret itself at run time (ORIGIN_VERIFY_SECRET,
    // shared/services/origin-verify-secret.ts): its values are in no function's configuration.
    const current = SecretValue.secretsManager(this.originVerifySecret.secretArn, {
      jsonField: 'current',
      versionId: settings.originVerifyVersion,
    }).unsafeUnwrap();

    this.webAclArn = settings.webAclArn ?? this.createWebAcl(settings, routes);

    const logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // CloudFront standard logs are delivered with an ACL: the bucket must accept ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetention) }],
      removalPolicy,
      autoDeleteObjects: !settings.retainData,
    });
    Validations.of(logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket; logging it into itself would loop.',
    });

    const shared: SharedParts = {
      settings,
      apiDomain: `${api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      originVerifyHeader: current,
      webAclArn: this.webAclArn,
      logBucket,
      // Else CDK gives the deployment helper a log group of its own kept two years and never deleted.
      deploymentLogs: new LogGroup(this, 'DeploymentLogs', { retention: settings.logRetention, removalPolicy }),
      viewerAddress: new CloudFrontFunction(this, 'ViewerAddress', {
        code: FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION),
        runtime: FunctionRuntime.JS_2_0,
        comment: 'The viewer address for the API (login limits per client)',
      }),
      spaFallback: new CloudFrontFunction(this, 'SpaFallback', {
        code: FunctionCode.fromInline(SPA_FALLBACK_FUNCTION),
        runtime: FunctionRuntime.JS_2_0,
        comment: 'Extension-less paths get the SPA shell /index.html',
      }),
      headers: new ResponseHeadersPolicy(this, 'SecurityHeaders', {
        comment: `ticketing-${settings.name}: security headers of the front-end files`,
        securityHeadersBehavior: {
          strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
          contentSecurityPolicy: { contentSecurityPolicy: FRONT_END_CSP, override: false },
        },
      }),
      docs: new ApiDocs(this, 'ApiDocs', { settings }),
      certificate: settings.certificateArn
        ? Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn)
        : undefined,
      zone: settings.hostedZone
        ? HostedZone.fromHostedZoneAttributes(this, 'Zone', {
            hostedZoneId: settings.hostedZone.id,
            zoneName: settings.hostedZone.name,
          })
        : undefined,
    };
    this.admin = new FrontEnd(this, 'Admin', 'admin', shared);
    this.portal = new FrontEnd(this, 'Portal', 'portal', shared);
    acknowledgeDeploymentHelper(Stack.of(this), [this.admin.bucket, this.portal.bucket]);
  }

  /** The front ends' origins: admin first (ADMIN_UI_URL), then the portal (PORTAL_URL). */
  get origins(): string[] {
    return [this.admin.origin, this.portal.origin];
  }

  /**
   * A CloudFront-scoped web ACL, which AWS creates only in us-east-1: a template rule stops
   * the deploy elsewhere (then create one there and pass `-c webAclArn=`).
   */
  private createWebAcl(settings: StageSettings, routes: readonly RouteRow[]): string {
    new CfnRule(this, 'WebAclRegion', {
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
          assertDescription:
            'A CloudFront web ACL can only be created in us-east-1: deploy there, or pass -c webAclArn=<CloudFront web ACL ARN>.',
        },
      ],
    });
    const visibility = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `ticketing-${settings.name}-${name}`,
    });
    const managed = (name: string, priority: number, overrides: string[] = []): CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ruleActionOverrides: overrides.length
            ? overrides.map((rule) => ({ name: rule, actionToUse: { count: {} } }))
            : undefined,
        },
      },
      visibilityConfig: visibility(name),
    });
    const limited = rateLimitedRoutes(routes);
    const matchRoute = (row: RouteRow): CfnWebACL.StatementProperty => ({
      andStatement: {
        statements: [
          {
            byteMatchStatement: {
              fieldToMatch: { uriPath: {} },
              positionalConstraint: 'EXACTLY',
              searchString: `${API_PREFIX}${row.path}`,
              textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
            },
          },
          {
            byteMatchStatement: {
              fieldToMatch: { method: {} },
              positionalConstraint: 'EXACTLY',
              searchString: row.method,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
        ],
      },
    });
    const rules: CfnWebACL.RuleProperty[] = [
      managed('AWSManagedRulesAmazonIpReputationList', 0),
      managed('AWSManagedRulesCommonRuleSet', 1, COMMON_RULES_COUNTED),
      managed('AWSManagedRulesKnownBadInputsRuleSet', 2),
    ];
    if (limited.length > 0) {
      rules.push({
        name: 'LoginRateLimit',
        priority: 3,
        action: {
          block: {
            customResponse: {
              responseCode: 429,
              customResponseBodyKey: 'too-many-attempts',
              responseHeaders: [{ name: 'retry-after', value: '300' }],
            },
          },
        },
        statement: {
          rateBasedStatement: {
            limit: LOGIN_RATE_LIMIT,
            evaluationWindowSec: 300,
            aggregateKeyType: 'IP',
            scopeDownStatement:
              limited.length === 1 ? matchRoute(limited[0]!) : { orStatement: { statements: limited.map(matchRoute) } },
          },
        },
        visibilityConfig: visibility('LoginRateLimit'),
      });
    }
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      description: `ticketing-${settings.name}: managed rules and a login rate limit on both front ends`,
      rules,
      customResponseBodies: {
        'too-many-attempts': {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            type: '/problems/rate-limited',
            title: 'Too many requests',
            status: 429,
            detail: 'Too many login or password attempts from this address; try again in a few minutes.',
          }),
        },
      },
      visibilityConfig: visibility('WebAcl'),
    });
    return acl.attrArn;
  }
}

/**
 * The front-end files' Content-Security-Policy, unless the SPA's own answer sets one.
 * Scripts and styles from the same origin only; the API is on the same origin too.
 */
export const FRONT_END_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
].join('; ');

/**
 * BucketDeployment's upload function is one CDK-owned singleton at the stack's root (shared
 * by both front ends), so its findings are acknowledged there, on that construct only.
 */
function acknowledgeDeploymentHelper(stack: Stack, buckets: Bucket[]): void {
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

interface SharedParts {
  settings: StageSettings;
  apiDomain: string;
  originVerifyHeader: string;
  webAclArn: string;
  logBucket: Bucket;
  /** The BucketDeployment helper's logs (one helper function serves both front ends). */
  deploymentLogs: LogGroup;
  spaFallback: CloudFrontFunction;
  viewerAddress: CloudFrontFunction;
  headers: ResponseHeadersPolicy;
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

  constructor(scope: Construct, id: string, name: FrontEndName, parts: SharedParts) {
    super(scope, id);
    const { settings } = parts;
    const { domainName, assetsPath = path.join(PLACEHOLDER_PAGES, name) } = settings.frontEnds[name];
    if (!existsSync(path.join(assetsPath, 'index.html'))) {
      throw new StageSettingsError(
        `${name}Assets "${assetsPath}" must be a directory of built files with an index.html`,
      );
    }

    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: parts.logBucket,
      serverAccessLogsPrefix: `s3/${name}/`,
      // The files are a build output, redeployed from their source at every deploy.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // One origin object for the files and the docs behaviours: one origin and one OAC.
    const files = S3BucketOrigin.withOriginAccessControl(this.bucket);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `ticketing-${settings.name} ${name} front end`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: files,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: parts.headers,
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

    new BucketDeployment(this, 'Deploy', {
      // The SPA files and the API documentation (under api/v2/) in one deployment: a second one would prune the first's.
      sources: [Source.asset(assetsPath), parts.docs.source],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
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

    const upper = name.charAt(0).toUpperCase() + name.slice(1);
    new CfnOutput(Stack.of(this), `${upper}Url`, {
      value: this.origin,
      description: `The ${name} front end (API under /api/v2)`,
    });
    new CfnOutput(Stack.of(this), `${upper}DistributionId`, { value: this.distribution.distributionId });
    new CfnOutput(Stack.of(this), `${upper}Bucket`, { value: this.bucket.bucketName });
  }
}
