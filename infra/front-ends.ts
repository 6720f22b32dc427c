import { Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionRuntime,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import { Bucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { VIEWER_ADDRESS_HEADER } from '#shared/http/client-address';
import type { RouteRow } from '#shared/routes';
import { ApiDocs } from './api-docs.ts';
import { FrontEnd, type FrontEndParts } from './front-end-distribution.ts';
import { acknowledgeDeploymentHelper } from './front-end-files.ts';
import { FRONT_END_CSP, PORTAL_CSP } from './front-end-csp.ts';
import { frontEndWebAcl } from './front-end-web-acl.ts';
import { originVerifyHeaderValue, originVerifySecret } from './origin-verify.ts';
import { PRIVATE_BUCKET } from './private-files.ts';
import { securityHeaders } from './security-headers.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

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

export interface FrontEndsProps {
  settings: StageSettings;
  api: IHttpApi;
  routes: readonly RouteRow[];
}

/**
 * The stage's two front ends (admin SPA, customer portal; infra/front-end-distribution.ts),
 * each one CloudFront origin: static files from a private bucket, and `/api/*` forwarded to
 * the HTTP API, so the auth cookie is first-party. Made here once for both: the
 * origin-verify secret (infra/origin-verify.ts), the WAF web ACL
 * (infra/front-end-web-acl.ts), the SPA fallback and viewer-address functions, the security
 * headers (one policy per front end: their CSPs differ), the API documentation, the access-log bucket and the custom domains' certificate
 * and zone.
 */
export class FrontEnds extends Construct {
  readonly admin: FrontEnd;
  readonly portal: FrontEnd;
  /** JSON `{ current, previous }`: CloudFront sends `current`; the functions accept both. */
  readonly originVerifySecret: Secret;

  constructor(scope: Construct, id: string, { settings, api, routes }: FrontEndsProps) {
    super(scope, id);
    const removalPolicy = removalPolicyOf(settings);

    this.originVerifySecret = originVerifySecret(this, 'OriginVerify', settings);
    const webAclArn = settings.webAclArn ?? frontEndWebAcl(this, 'WebAcl', settings, routes);

    const logBucket = new Bucket(this, 'AccessLogs', {
      ...PRIVATE_BUCKET,
      // CloudFront standard logs are delivered with an ACL: the bucket must accept ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetention) }],
      removalPolicy,
      autoDeleteObjects: !settings.retainData,
    });
    Validations.of(logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket; logging it into itself would loop.',
    });

    const parts: FrontEndParts = {
      settings,
      apiDomain: `${api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      originVerifyHeader: originVerifyHeaderValue(this.originVerifySecret, settings),
      webAclArn,
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
      headers: {
        admin: new ResponseHeadersPolicy(this, 'SecurityHeaders', {
          comment: `ticketing-${settings.name}: security headers of the front-end files`,
          securityHeadersBehavior: securityHeaders(FRONT_END_CSP, { overrideCsp: false }),
        }),
        portal: new ResponseHeadersPolicy(this, 'PortalSecurityHeaders', {
          comment: `ticketing-${settings.name}: security headers of the portal's files (Stripe.js allowed)`,
          securityHeadersBehavior: securityHeaders(PORTAL_CSP, { overrideCsp: false }),
        }),
      },
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
    this.admin = new FrontEnd(this, 'Admin', 'admin', parts);
    this.portal = new FrontEnd(this, 'Portal', 'portal', parts);
    acknowledgeDeploymentHelper(Stack.of(this), [this.admin.bucket, this.portal.bucket]);
  }
}
