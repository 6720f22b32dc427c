import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import { routeKey, routes } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { createApp } from '../../infra/app.ts';
import { DOCS_PAGE_FUNCTION } from '../../infra/api-docs.ts';
import { DOCS_CSP } from '../../infra/api-docs-site.ts';
import { COMMON_RULES_COUNTED, LOGIN_RATE_LIMIT, rateLimitedRoutes } from '../../infra/front-end-web-acl.ts';
import { FRONT_END_CSP, PORTAL_CSP } from '../../infra/front-end-csp.ts';
import { SPA_FALLBACK_FUNCTION, VIEWER_ADDRESS_FUNCTION } from '../../infra/front-ends.ts';
import { STAGE_FILES } from '../../infra/stages.ts';
import { VIEWER_ADDRESS_HEADER } from '#shared/http/client-address';
import { unacknowledgedFindings } from './nag.ts';
import { ROUTE_SAMPLE, resourcesOf, routeFunctions, synth } from './synth.ts';

// Managed policy ids (the same in every account).
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab';
// Not the committed prod domains, and not example.* (prod refuses placeholders).
const DOMAINS = {
  adminDomain: 'admin.tickets.northwind-events.org',
  portalDomain: 'my.tickets.northwind-events.org',
  certificateArn: CERTIFICATE,
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'tickets.northwind-events.org',
};

/** The front ends' distributions (the photo CDN is not one). */
const distributions = (template: Template) =>
  Object.entries(resourcesOf(template, 'AWS::CloudFront::Distribution')).filter(([, d]) =>
    d.Properties.DistributionConfig.Comment.endsWith('front end'),
  );
const configOf = (template: Template, comment: string) =>
  distributions(template).find(([, d]) => d.Properties.DistributionConfig.Comment.includes(comment))![1].Properties
    .DistributionConfig;
const idOf = (template: Template, comment: string) =>
  distributions(template).find(([, d]) => d.Properties.DistributionConfig.Comment.includes(comment))![0];
/** `https://<distribution domain>` as the template spells it. */
const distributionOrigin = (id: string) => ({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id, 'DomainName'] }]] });

// Each stage synthesised once: the checks below read these templates.
const built: Record<string, { app: App; template: Template }> = {};
beforeAll(() => {
  built.dev = synth({ context: { siteAuthMethod: 'idp' } });
  built.staging = synth({ context: { stage: 'staging' } });
  built.prod = synth({ context: { stage: 'prod' } });
  built.domains = synth({ context: { stage: 'prod', siteAuthMethod: 'idp', ...DOMAINS } });
}, 120_000);

describe('the front-end distributions', () => {
  it('gives each stage an admin and a portal distribution, each with a private bucket behind origin access control', () => {
    for (const stage of ['dev', 'staging', 'prod']) {
      const { template } = built[stage]!;
      expect(
        distributions(template)
          .map(([, d]) => d.Properties.DistributionConfig.Comment)
          .sort(),
        stage,
      ).toEqual([`ticketing-${stage} admin front end`, `ticketing-${stage} portal front end`]);
      expect(
        Object.keys(resourcesOf(template, 'AWS::S3::Bucket')).filter((id) => id.startsWith('FrontEnds')),
        stage,
      ).toHaveLength(3);
      for (const bucket of Object.values(resourcesOf(template, 'AWS::S3::Bucket'))) {
        expect(bucket.Properties.PublicAccessBlockConfiguration, stage).toEqual({
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        });
      }
    }
    const { template } = built.dev!;
    for (const [id, d] of distributions(template)) {
      const config = d.Properties.DistributionConfig;
      const s3 = config.Origins.find((o: any) => o.S3OriginConfig);
      expect(s3.OriginAccessControlId, id).toEqual({
        'Fn::GetAtt': [expect.stringContaining('OriginAccessControl'), 'Id'],
      });
      expect(config.DefaultRootObject).toBe('index.html');
      // Error responses would turn the API's 403/404 problem answers into index.html.
      expect(config.CustomErrorResponses, id).toBeUndefined();
      // Only CloudFront, for this distribution, may read the bucket.
      const bucketId = s3.DomainName['Fn::GetAtt'][0];
      const policy = Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy')).find(
        (p) => p.Properties.Bucket.Ref === bucketId,
      )!;
      const statements = policy.Properties.PolicyDocument.Statement as any[];
      expect(
        statements.filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Principal).includes('"*"')),
        id,
      ).toEqual([]);
      // (The other Allow is CDK's empty-the-bucket-on-delete helper role.)
      const reads = statements.filter((s) => s.Effect === 'Allow' && s.Principal.Service);
      expect(reads).toEqual([
        expect.objectContaining({
          Action: 's3:GetObject',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Condition: {
            StringEquals: {
              'AWS:SourceArn': expect.objectContaining({
                'Fn::Join': expect.arrayContaining([expect.arrayContaining([{ Ref: id }])]),
              }),
            },
          },
        }),
      ]);
    }
  });

  it('forwards /api/* to the HTTP API over HTTPS: no caching, every method, the viewer headers but Host, and the origin-verify header', () => {
    const { template } = built.dev!;
    const apiId = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'))[0]!;
    const secretId = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) =>
      s.Properties.Description.includes(ORIGIN_VERIFY_HEADER),
    )![0];
    for (const [id, d] of distributions(template)) {
      const config = d.Properties.DistributionConfig;
      // The API documentation's three behaviours come first (their own test below), then the API.
      expect(
        config.CacheBehaviors.map((b: any) => b.PathPattern),
        id,
      ).toEqual(['/api/v2/openapi.json', '/api/v2/docs', '/api/v2/docs/*', '/api/*']);
      const api = config.CacheBehaviors[3];
      expect(api).toMatchObject({
        PathPattern: '/api/*',
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      });
      expect(api.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      // Only the viewer-address function: no SPA fallback on the API.
      const viewerAddressId = Object.entries(resourcesOf(template, 'AWS::CloudFront::Function')).find(
        ([, f]) => f.Properties.FunctionCode === VIEWER_ADDRESS_FUNCTION,
      )![0];
      expect(api.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [viewerAddressId, 'FunctionARN'] } },
      ]);
      const origin = config.Origins.find((o: any) => o.Id === api.TargetOriginId);
      expect(origin.DomainName).toEqual({
        'Fn::Join': ['', [{ Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
      });
      expect(origin.CustomOriginConfig).toMatchObject({
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
      expect(origin.OriginCustomHeaders).toEqual([
        {
          HeaderName: ORIGIN_VERIFY_HEADER,
          HeaderValue: {
            'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:current::}}']],
          },
        },
      ]);
    }
  });

  it('serves the static files with security headers and the SPA fallback on the default behaviour only', () => {
    const { template } = built.dev!;
    const fallbacks = Object.entries(resourcesOf(template, 'AWS::CloudFront::Function')).filter(
      ([, f]) => f.Properties.FunctionCode === SPA_FALLBACK_FUNCTION,
    );
    expect(fallbacks).toHaveLength(1);
    const fallbackId = fallbacks[0]![0];
    for (const [, d] of distributions(template)) {
      const behaviour = d.Properties.DistributionConfig.DefaultCacheBehavior;
      expect(behaviour.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fallbackId, 'FunctionARN'] } },
      ]);
      expect(behaviour.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(behaviour.ResponseHeadersPolicyId).toEqual({ Ref: expect.any(String) });
    }
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ Override: true }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentSecurityPolicy: Match.objectLike({
            ContentSecurityPolicy: Match.stringLikeRegexp("frame-ancestors 'none'"),
          }),
        }),
      }),
    });
  });

  it("gives the portal's files a CSP of their own allowing Stripe.js (script, frames, API) and the admin's none of it", () => {
    const { template } = built.dev!;
    const policies = resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const cspOf = (comment: string) => {
      const policyId = configOf(template, comment).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref;
      return policies[policyId]!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy;
    };
    expect(cspOf('admin front end')).toEqual({ ContentSecurityPolicy: FRONT_END_CSP, Override: false });
    expect(cspOf('portal front end')).toEqual({ ContentSecurityPolicy: PORTAL_CSP, Override: false });
    const directives = (csp: string) =>
      Object.fromEntries(csp.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));
    expect(directives(PORTAL_CSP)).toEqual({
      ...directives(FRONT_END_CSP),
      'script-src': ["'self'", 'https://js.stripe.com'],
      'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
      'connect-src': ["'self'", 'https://api.stripe.com'],
    });
    expect(FRONT_END_CSP).not.toContain('stripe');
  });

  it('serves the API documentation from the bucket ahead of /api/*: revalidated, with its own CSP, the page mapped to its stored file', () => {
    const { template } = built.dev!;
    const [policyId, policy] = Object.entries(resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy')).find(
      ([, p]) => p.Properties.ResponseHeadersPolicyConfig.Comment.includes('API documentation'),
    )!;
    const config = policy.Properties.ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: DOCS_CSP,
      Override: true,
    });
    expect(config.SecurityHeadersConfig.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(config.CustomHeadersConfig.Items).toEqual([{ Header: 'Cache-Control', Value: 'no-cache', Override: true }]);
    const pageFunctions = Object.entries(resourcesOf(template, 'AWS::CloudFront::Function')).filter(
      ([, f]) => f.Properties.FunctionCode === DOCS_PAGE_FUNCTION,
    );
    expect(pageFunctions).toHaveLength(1);
    const rewrite = [
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [pageFunctions[0]![0], 'FunctionARN'] } },
    ];

    for (const [id, d] of distributions(template)) {
      const distribution = d.Properties.DistributionConfig;
      const s3 = distribution.Origins.filter((o: any) => o.S3OriginConfig);
      // The same bucket origin (and OAC) as the default behaviour, not a second one.
      expect(s3, id).toHaveLength(1);
      expect(distribution.DefaultCacheBehavior.TargetOriginId).toBe(s3[0].Id);
      const docs = distribution.CacheBehaviors.slice(0, 3);
      for (const behaviour of docs) {
        expect(behaviour, `${id} ${behaviour.PathPattern}`).toMatchObject({
          TargetOriginId: s3[0].Id,
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: ['GET', 'HEAD'],
          CachePolicyId: distribution.DefaultCacheBehavior.CachePolicyId,
          ResponseHeadersPolicyId: { Ref: policyId },
        });
      }
      expect(docs[0].FunctionAssociations).toBeUndefined();
      expect(docs[1].FunctionAssociations).toEqual(rewrite);
      expect(docs[2].FunctionAssociations).toEqual(rewrite);
    }
    // Deployed with the SPA files (one deployment per bucket: a second would prune the first's files).
    for (const deployment of Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'))) {
      expect(deployment.Properties.SourceObjectKeys).toHaveLength(2);
    }
  });

  it('maps /api/v2/docs and /api/v2/docs/ to the stored page and leaves the other files alone', () => {
    const handler = new Function(`${DOCS_PAGE_FUNCTION}; return handler;`)() as (event: {
      request: { uri: string };
    }) => { uri: string };
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/api/v2/docs')).toBe('/api/v2/docs/index.html');
    expect(rewrite('/api/v2/docs/')).toBe('/api/v2/docs/index.html');
    expect(rewrite('/api/v2/docs/redoc.standalone.js')).toBe('/api/v2/docs/redoc.standalone.js');
    expect(rewrite('/api/v2/docs/index.html')).toBe('/api/v2/docs/index.html');
  });

  it('generates the documentation at synth in a child process when no -c apiDocs is given', () => {
    // The documents come from the whole catalogue whatever rows the stack has: the sample's build is enough.
    const { app, template } = synth({ context: { apiDocs: undefined }, routes: ROUTE_SAMPLE });
    const assembly = app.synth().directory;
    const keys = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment')).flatMap(
      (d) => d.Properties.SourceObjectKeys as string[],
    );
    const staged = [...new Set(keys)]
      .map((key) => path.join(assembly, `asset.${key.replace(/\.zip$/, '')}`))
      .filter((dir) => existsSync(path.join(dir, 'api/v2/openapi.json')));
    expect(staged).toHaveLength(1);
    const document = JSON.parse(readFileSync(path.join(staged[0]!, 'api/v2/openapi.json'), 'utf8'));
    expect(Object.keys(document.paths)).toContain('/tickets/{id}/check-in');
    expect(readFileSync(path.join(staged[0]!, 'api/v2/docs/index.html'), 'utf8')).toContain(
      '<redoc spec-url="/api/v2/openapi.json"',
    );
    expect(existsSync(path.join(staged[0]!, 'api/v2/docs/redoc.standalone.js'))).toBe(true);
    expect(() => synth({ context: { apiDocs: '/nonexistent/docs' } })).toThrow(/apiDocs.*api\/v2\/openapi\.json/);
  }, 120_000);

  it("tells the API the viewer's address, overwriting one the viewer sent", () => {
    type Request = { headers: Record<string, { value: string }> };
    const handler = new Function(`${VIEWER_ADDRESS_FUNCTION}; return handler;`)() as (event: {
      request: Request;
      viewer: { ip: string };
    }) => Request;
    const forged = { headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.0.0.1' }, accept: { value: '*/*' } } };
    expect(handler({ request: forged, viewer: { ip: '203.0.113.7' } }).headers).toEqual({
      [VIEWER_ADDRESS_HEADER]: { value: '203.0.113.7' },
      accept: { value: '*/*' },
    });
  });

  it('rewrites client-side routes to /index.html and leaves files alone', () => {
    const handler = new Function(`${SPA_FALLBACK_FUNCTION}; return handler;`)() as (event: {
      request: { uri: string };
    }) => { uri: string };
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/tickets')).toBe('/index.html');
    expect(rewrite('/events/7/tickets/')).toBe('/index.html');
    expect(rewrite('/verify-email')).toBe('/index.html');
    expect(rewrite('/v1.2/orders')).toBe('/index.html');
    expect(rewrite('/index.html')).toBe('/index.html');
    expect(rewrite('/assets/app-3f2a.js')).toBe('/assets/app-3f2a.js');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
  });

  it('deploys the placeholder pages or the given build, invalidating the distribution', () => {
    const { template } = built.dev!;
    const deployments = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(2);
    for (const deployment of deployments) expect(deployment.Properties.DistributionPaths).toEqual(['/*']);
    expect(() => synth({ context: { adminAssets: '/nonexistent/dist' } })).toThrow(/-c adminAssets.*index\.html/);
  });

  it('leaves the SPA files alone where the stage names no source (staging, prod): only api/v2/ is deployed, pruned and invalidated', () => {
    for (const stage of ['staging', 'prod']) {
      const deployments = Object.values(resourcesOf(built[stage]!.template, 'Custom::CDKBucketDeployment'));
      expect(deployments, stage).toHaveLength(2);
      for (const { Properties } of deployments) {
        // One source, the documentation: nothing outside the prefix is written or pruned.
        expect(Properties.SourceObjectKeys, stage).toHaveLength(1);
        expect(Properties.DestinationBucketKeyPrefix, stage).toBe('api/v2/');
        expect(Properties.DistributionPaths, stage).toEqual(['/api/v2/*']);
      }
    }
    // dev's deployments carry the placeholder pages too, from the root of the bucket.
    for (const { Properties } of Object.values(resourcesOf(built.dev!.template, 'Custom::CDKBucketDeployment'))) {
      expect(Properties.SourceObjectKeys).toHaveLength(2);
      expect(Properties.DestinationBucketKeyPrefix).toBeUndefined();
    }
  });

  it('logs both distributions and both buckets into the stage log bucket', () => {
    const { template } = built.prod!;
    for (const [, d] of distributions(template)) {
      expect(d.Properties.DistributionConfig.Logging).toEqual({
        Bucket: { 'Fn::GetAtt': [expect.stringContaining('AccessLogs'), 'RegionalDomainName'] },
        Prefix: expect.stringMatching(/^cloudfront\/(admin|portal)\/$/),
      });
    }
  });
});

describe('custom domains from context', () => {
  it('sets the aliases, the us-east-1 certificate with TLS 1.2, and Route 53 A/AAAA alias records', () => {
    const { template } = built.domains!;
    for (const [comment, domain] of [
      ['admin', DOMAINS.adminDomain],
      ['portal', DOMAINS.portalDomain],
    ] as const) {
      const config = configOf(template, `${comment} front end`);
      expect(config.Aliases).toEqual([domain]);
      expect(config.ViewerCertificate).toMatchObject({
        AcmCertificateArn: CERTIFICATE,
        SslSupportMethod: 'sni-only',
        MinimumProtocolVersion: 'TLSv1.2_2021',
      });
      for (const type of ['A', 'AAAA']) {
        template.hasResourceProperties('AWS::Route53::RecordSet', {
          Name: `${domain}.`,
          Type: type,
          HostedZoneId: DOMAINS.hostedZoneId,
          AliasTarget: Match.objectLike({
            DNSName: { 'Fn::GetAtt': [idOf(template, `${comment} front end`), 'DomainName'] },
          }),
        });
      }
    }
  });

  it("uses the domains as each audience's origins, the admin one for callbacks and UI URL, and lets the HTTP API answer their preflights", () => {
    const { template } = built.domains!;
    const admin = `https://${DOMAINS.adminDomain}`;
    const portal = `https://${DOMAINS.portalDomain}`;
    for (const { fn } of routeFunctions(template).values()) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        ADMIN_ORIGINS: admin,
        PORTAL_ORIGINS: portal,
        ADMIN_UI_URL: admin,
      });
    }
    // Administrators sign in from the admin front end only: no callback on the portal.
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      CallbackURLs: [`${admin}${API_PREFIX}/auth/callback`],
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: [admin, portal], AllowCredentials: true }),
    });
  });

  it('refuses a domain without a certificate, a certificate outside us-east-1, and a half-given hosted zone', () => {
    expect(() => createApp({ context: { stage: 'dev', adminDomain: 'admin.example.org' } })).toThrow(/certificateArn/);
    const elsewhere = CERTIFICATE.replace('us-east-1', 'eu-west-1');
    expect(() =>
      createApp({ context: { stage: 'dev', adminDomain: 'admin.example.org', certificateArn: elsewhere } }),
    ).toThrow(/us-east-1/);
    expect(() =>
      createApp({ context: { stage: 'dev', adminDomain: 'https://admin.example.org', certificateArn: CERTIFICATE } }),
    ).toThrow(/host name/);
    expect(() => createApp({ context: { stage: 'dev', hostedZoneId: 'Z1' } })).toThrow(/hostedZone\.name/);
  });
});

describe('values derived from the distributions', () => {
  it('gives every function ADMIN_ORIGINS / PORTAL_ORIGINS = its front end + the extra origins, ADMIN_UI_URL = the admin front end', () => {
    const { template } = built.dev!;
    const admin = idOf(template, 'admin front end');
    const portal = idOf(template, 'portal front end');
    const originsOf = (id: string) => ({
      'Fn::Join': [
        '',
        ['https://', { 'Fn::GetAtt': [id, 'DomainName'] }, ',http://localhost:5173,http://127.0.0.1:5173'],
      ],
    });
    for (const [handler, { fn }] of routeFunctions(template)) {
      const env = fn.Properties.Environment.Variables;
      expect(env.ADMIN_ORIGINS, handler).toEqual(originsOf(admin));
      expect(env.PORTAL_ORIGINS, handler).toEqual(originsOf(portal));
      expect(env.ALLOWED_ORIGINS, handler).toBeUndefined();
      expect(env.ADMIN_UI_URL, handler).toEqual(distributionOrigin(admin));
      expect(env.API_BASE_URL, handler).toBeUndefined();
      const mails = routes.find((row) => row.handler === handler)!.uses.email;
      expect(env.PORTAL_URL, handler).toEqual(mails ? distributionOrigin(portal) : undefined);
    }
    // No front-end origin in staging or prod: only the two distributions.
    for (const { fn } of routeFunctions(built.prod!.template).values()) {
      const { ADMIN_ORIGINS, PORTAL_ORIGINS } = fn.Properties.Environment.Variables;
      expect(JSON.stringify([ADMIN_ORIGINS, PORTAL_ORIGINS])).not.toMatch(/localhost|127\.0\.0\.1|example/);
    }
  });

  it('registers one Cognito callback per admin origin (none on the portal), and the logout URLs POST /auth/logout accepts', () => {
    const { template } = built.dev!;
    const admin = idOf(template, 'admin front end');
    const portal = idOf(template, 'portal front end');
    const at = (id: string, suffix: string) => ({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id, 'DomainName'] }, suffix]],
    });
    const client = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolClient')).find(
      (c) => c.Properties.AllowedOAuthFlows,
    )!.Properties;
    expect(client.CallbackURLs).toEqual([
      at(admin, '/api/v2/auth/callback'),
      'http://localhost:5173/api/v2/auth/callback',
      'http://127.0.0.1:5173/api/v2/auth/callback',
    ]);
    expect(client.LogoutURLs).toEqual(
      expect.arrayContaining([
        distributionOrigin(admin),
        at(admin, '/'),
        at(admin, '/?error_code=not_vendor_user'),
        'http://localhost:5173/',
      ]),
    );
    expect(JSON.stringify([client.CallbackURLs, client.LogoutURLs])).not.toContain(portal);
  });

  it('answers preflights in API Gateway only for literal origins (the distributions are same-origin), with the shared CORS definition', () => {
    built.dev!.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
        AllowCredentials: true,
        AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        AllowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-requested-with'],
        ExposeHeaders: ['deprecation', 'idempotent-replayed', 'link', 'ratelimit', 'ratelimit-policy', 'retry-after'],
        MaxAge: 600,
      },
    });
    // prod: its committed custom domains, literal origins, and nothing else.
    const api = Object.values(resourcesOf(built.prod!.template, 'AWS::ApiGatewayV2::Api'))[0]!;
    const { admin, portal } = STAGE_FILES.prod.frontEnds;
    expect(api.Properties.CorsConfiguration.AllowOrigins).toEqual([
      `https://${admin.domain}`,
      `https://${portal.domain}`,
    ]);
  });

  it("gives every function the origin-verify secret's ARN and GetSecretValue on it, never its value; CloudFront's header pins a rotation's version", () => {
    const { template } = built.dev!;
    const secretId = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) =>
      s.Properties.Description.includes(ORIGIN_VERIFY_HEADER),
    )![0];
    const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy'));
    for (const [handler, { fn }] of routeFunctions(template)) {
      const variables = fn.Properties.Environment.Variables;
      expect(variables.ORIGIN_VERIFY_SECRET, handler).toEqual({ Ref: secretId });
      // Only the public JWKS is a dynamic reference in the environment; the origin-verify values are not.
      expect(JSON.stringify(variables), handler).not.toContain(`{"Ref":"${secretId}"},":SecretString`);
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = policies
        .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      const reads = statements
        .filter((s: any) => s.Action === 'secretsmanager:GetSecretValue')
        .flatMap((s: any) => [s.Resource].flat());
      expect(reads, handler).toContainEqual({ Ref: secretId });
    }
    const version = '0123abcd-4567-89ef-0123-456789abcdef';
    const rotated = synth({ routes: routes.slice(0, 2), context: { originVerifyVersion: version } }).template;
    const secret = { Ref: secretId };
    const header = distributions(rotated)[0]![1].Properties.DistributionConfig.Origins.find(
      (o: any) => o.OriginCustomHeaders,
    ).OriginCustomHeaders[0];
    expect(header.HeaderValue).toEqual({
      'Fn::Join': ['', ['{{resolve:secretsmanager:', secret, `:SecretString:current::${version}}}`]],
    });
    expect(() => synth({ routes: routes.slice(0, 1), context: { originVerifyVersion: 'v1' } })).toThrow(
      /originVerifyVersion/,
    );
  });
});

describe('the WAF', () => {
  it('logs every request to CloudWatch in staging and prod (aws-waf-logs-…, Authorization and Cookie redacted), not in dev', () => {
    for (const stage of ['staging', 'prod']) {
      const { template } = built[stage]!;
      const aclId = Object.keys(resourcesOf(template, 'AWS::WAFv2::WebACL'))[0]!;
      const [logging] = Object.values(resourcesOf(template, 'AWS::WAFv2::LoggingConfiguration'));
      expect(logging?.Properties.ResourceArn, stage).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(logging!.Properties.RedactedFields).toEqual([
        { SingleHeader: { Name: 'authorization' } },
        { SingleHeader: { Name: 'cookie' } },
      ]);
      // Named aws-waf-logs-ticketing-<stage>-<the UUID of the stack that made it>: a retained group, and a
      // re-created stage gets a new one instead of "already exists".
      const name = `aws-waf-logs-ticketing-${stage}-`;
      const destination = JSON.stringify(logging!.Properties.LogDestinationConfigs);
      expect(destination).toContain(`:log-group:${name}`);
      expect(destination).toContain('AWS::StackId');
      expect(destination).not.toContain(':*');
      const group = Object.values(resourcesOf(template, 'AWS::Logs::LogGroup')).find((g) =>
        JSON.stringify(g.Properties.LogGroupName ?? '').includes(name),
      );
      expect(JSON.stringify(group?.Properties.LogGroupName), stage).toContain('AWS::StackId');
    }
    expect(Object.keys(resourcesOf(built.dev!.template, 'AWS::WAFv2::LoggingConfiguration'))).toEqual([]);
  });

  it('rate-limits the login and password routes of the route table', () => {
    const limited = rateLimitedRoutes(routes).map(routeKey).sort();
    expect(limited).toEqual(
      expect.arrayContaining([
        'POST /auth/login',
        'POST /auth/legacy/login',
        'POST /auth/legacy/forgot-password',
        'POST /auth/legacy/reset-password',
        'POST /auth/change-password',
        'PUT /my-account',
        'POST /my-account/sign-up',
      ]),
    );
    // Customer data on the same path and signed-in routes stay out.
    expect(limited).not.toContain('GET /my-account');
    expect(limited).not.toContain('GET /auth/me');
  });

  it('attaches one CloudFront web ACL (managed rules + the login rate rule on those paths) to both distributions', () => {
    for (const stage of ['dev', 'staging', 'prod']) {
      const { template } = built[stage]!;
      const acls = Object.entries(resourcesOf(template, 'AWS::WAFv2::WebACL'));
      expect(acls, stage).toHaveLength(1);
      const [aclId, acl] = acls[0]!;
      expect(acl.Properties.Scope).toBe('CLOUDFRONT');
      for (const [, d] of distributions(template))
        expect(d.Properties.DistributionConfig.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      const rules = acl.Properties.Rules as any[];
      expect(
        rules
          .filter((r) => r.Statement.ManagedRuleGroupStatement)
          .map((r) => r.Statement.ManagedRuleGroupStatement.Name)
          .sort(),
      ).toEqual([
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesCommonRuleSet',
        'AWSManagedRulesKnownBadInputsRuleSet',
      ]);
      const common = rules.find((r) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet')!;
      expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual(
        COMMON_RULES_COUNTED.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
      );
      const rate = rules.find((r) => r.Statement.RateBasedStatement)!;
      expect(rate.Action.Block.CustomResponse.ResponseCode).toBe(429);
      expect(rate.Statement.RateBasedStatement).toMatchObject({ Limit: LOGIN_RATE_LIMIT, AggregateKeyType: 'IP' });
      const scoped = rate.Statement.RateBasedStatement.ScopeDownStatement.OrStatement.Statements.map((s: any) => {
        const [uri, method] = s.AndStatement.Statements.map((m: any) => m.ByteMatchStatement);
        return `${method.SearchString} ${uri.SearchString}`;
      });
      expect(scoped.sort()).toEqual(
        rateLimitedRoutes(routes)
          .map((row) => `${row.method} ${API_PREFIX}${row.path}`)
          .sort(),
      );
    }
  });

  it('refuses to deploy the web ACL outside us-east-1, or attaches the ARN given in context instead', () => {
    expect(built.dev!.template.toJSON().Rules).toMatchObject({
      [Object.keys(built.dev!.template.toJSON().Rules).find((id) => id.includes('WebAclRegion'))!]: {
        Assertions: [{ Assert: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] } }],
      },
    });
    const arn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/ticketing/0a1b2c3d';
    const { template } = synth({ routes: routes.slice(0, 1), context: { webAclArn: arn } });
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    for (const [, d] of distributions(template)) expect(d.Properties.DistributionConfig.WebACLId).toBe(arn);
    expect(Object.keys(template.toJSON().Rules ?? {}).some((id) => id.includes('WebAclRegion'))).toBe(false);
    expect(() =>
      synth({
        routes: routes.slice(0, 1),
        context: { webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/y' },
      }),
    ).toThrow(/webAclArn/);
  });
});

describe('cdk-nag', () => {
  it('reports nothing unacknowledged for dev, staging, prod and prod with custom domains', () => {
    for (const stage of ['dev', 'staging', 'prod', 'domains']) {
      expect(unacknowledgedFindings(built[stage]!.app), stage).toEqual([]);
    }
  });
});
