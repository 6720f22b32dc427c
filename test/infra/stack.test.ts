import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '#shared/data/table-schema';
import { type RouteRow, routeKey, routes, TABLE_WRITE_ACTIONS, writesTable } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { createApp } from '../../infra/app.ts';
import { PHOTO_CSP, PHOTOS_ONLY_FUNCTION } from '../../infra/photo-store.ts';
import { CUSTOMER_IDENTITY_ACTIONS, IDENTITY_PROVIDER_ACTIONS } from '../../infra/function-grants.ts';
import {
  FIXTURE_FUNCTIONS,
  actionsOf,
  actionsOn,
  onlyId,
  ROUTE_SAMPLE,
  routeFunctions,
  statementsOf,
  synth,
} from './synth.ts';
import { nagFindings } from './nag.ts';

/** Rows that exercise every `uses` the real table does not use yet (stub handlers in fixtures/). */
const SYNTHETIC: readonly RouteRow[] = [
  {
    method: 'POST',
    path: '/tickets/{id}/profile-photo',
    handler: 'tickets/profile-photo-upload',
    auth: { kind: 'admin' },
    uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], photos: true },
  },
  {
    method: 'POST',
    path: '/auth/legacy/forgot-password',
    handler: 'auth/legacy-forgot-password',
    auth: { kind: 'public' },
    uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], email: true },
  },
  {
    method: 'GET',
    path: '/auth/callback',
    handler: 'auth/callback',
    auth: { kind: 'public' },
    uses: { table: ['GetItem'], identityProvider: 'sign-in', signingKey: true },
  },
  {
    method: 'POST',
    path: '/my-account',
    handler: 'my-account/create',
    auth: { kind: 'admin', permission: 'customers:manage' },
    uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], identityProvider: 'manage-users' },
  },
  {
    method: 'GET',
    path: '/tickets',
    handler: 'tickets/list',
    auth: { kind: 'admin' },
    uses: { table: ['Query'], indexes: ['GSI1'] },
  },
  { method: 'GET', path: '/health', handler: 'health', auth: { kind: 'public' }, uses: {} },
];

const TABLE_WRITES = TABLE_WRITE_ACTIONS.map((action) => `dynamodb:${action}`);

/** The IAM services a row may reach: its log group's, plus exactly what `uses` names (`sign-in` needs no IAM). */
function servicesFor(row: RouteRow): string[] {
  return [
    'logs',
    ...(row.uses.table ? ['dynamodb'] : []),
    ...(row.uses.photos ? ['s3'] : []),
    ...(row.uses.email ? ['ses'] : []),
    ...(row.uses.identityProvider === 'manage-users' || row.uses.customerIdentity === 'manage-users'
      ? ['cognito-idp']
      : []),
    // Every function reads the origin-verify secret; issuing rows the signing keys too.
    'secretsmanager',
  ].sort();
}

/** Checks shared by the real and the synthetic route table. */
function describeRouteTable(name: string, rows: readonly RouteRow[], build: () => Template) {
  describe(name, () => {
    let template: Template;
    beforeAll(() => {
      template = build();
    }, 60_000);

    it('makes exactly one tagged function per route row', () => {
      const functions = routeFunctions(template);
      expect([...functions.keys()].sort()).toEqual(rows.map((row) => row.handler).sort());
    });

    it("routes METHOD /api/v2<path> of each row to that row's function", () => {
      const functions = routeFunctions(template);
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
      const aliases = template.findResources('AWS::Lambda::Alias');
      const routed = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => {
        const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
        // Routes call the function's `live` alias.
        const alias = aliases[integrations[integrationId]!.Properties.IntegrationUri.Ref]!.Properties;
        expect(alias.Name).toBe('live');
        const fnId = alias.FunctionName.Ref;
        const handler = [...functions].find(([, f]) => f.id === fnId)![0];
        return `${route.Properties.RouteKey} -> ${handler}`;
      });
      const expected = rows.map((row) => `${row.method} ${API_PREFIX}${row.path} -> ${row.handler}`);
      expect(routed.sort()).toEqual(expected.sort());
    });

    it('gives each function permissions only for the services its row uses', () => {
      for (const row of rows) {
        const { fn } = routeFunctions(template).get(row.handler)!;
        const services = new Set(actionsOf(statementsOf(template, fn)).map((action) => action.split(':')[0]));
        expect([...services].sort(), routeKey(row)).toEqual(servicesFor(row));
      }
    });

    // Which actions on which of its indexes: test/infra/table-grants.test.ts.
    it('names the table to the functions whose rows use it, and to no other', () => {
      const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
      for (const row of rows) {
        const { fn } = routeFunctions(template).get(row.handler)!;
        const onTable = actionsOn(statementsOf(template, fn), tableId);
        const env = fn.Properties.Environment.Variables;
        expect(onTable.length > 0, routeKey(row)).toBe(Boolean(row.uses.table));
        expect(env.TABLE_NAME, routeKey(row)).toEqual(row.uses.table ? { Ref: tableId } : undefined);
      }
    });

    it('sets the same defaults on every function (the photo upload gets more memory, hence CPU, to re-encode images)', () => {
      for (const [handler, { fn }] of routeFunctions(template)) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          MemorySize: handler === 'tickets/profile-photo' ? 2048 : 1024,
          Timeout: 10,
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
          Environment: {
            Variables: {
              NODE_OPTIONS: '--enable-source-maps',
              STAGE: 'dev',
              SITE_AUTH_METHOD: 'legacy',
              LOG_LEVEL: 'DEBUG',
              POWERTOOLS_SERVICE_NAME: 'ticketing-api',
              // The public JWKS: a deploy-time dynamic reference to the stage's key secret (test/infra/signing-keys.test.ts).
              JWT_PUBLIC_KEYS: '{{resolve:secretsmanager:ticketing/dev/signing-keys:SecretString:jwks::}}',
            },
          },
        });
      }
    });
  });
}

describeRouteTable('the stack of shared/routes.ts', routes, () => synth().template);
describeRouteTable(
  'a stack whose rows use photos, email and the identity provider',
  SYNTHETIC,
  () => synth({ routes: SYNTHETIC, functionsDir: FIXTURE_FUNCTIONS }).template,
);

describe("the public rows' writes", () => {
  let template: Template;
  beforeAll(() => {
    template = synth().template;
  }, 120_000);

  it('lets every public row write only the partitions it declares (a dynamodb:LeadingKeys condition on each write)', () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const publicRows = routes.filter((row) => row.auth.kind === 'public' && writesTable(row.uses));
    for (const row of publicRows) {
      expect(row.uses.tableWrites?.length, routeKey(row)).toBeGreaterThan(0);
      const { fn } = routeFunctions(template).get(row.handler)!;
      const writing = statementsOf(template, fn).filter(
        (s) => JSON.stringify(s.Resource).includes(tableId) && [s.Action].flat().some((a) => TABLE_WRITES.includes(a)),
      );
      expect(writing.length, routeKey(row)).toBeGreaterThan(0);
      for (const statement of writing) {
        expect(statement.Condition, routeKey(row)).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...row.uses.tableWrites!] },
        });
      }
    }
  });
});

describe('the table', () => {
  it('has the keys, GSIs (ALL projection), TTL and recovery of TABLE_SCHEMA', () => {
    const { template } = synth();
    const key = (hash: string, range: string) => [
      { AttributeName: hash, KeyType: 'HASH' },
      { AttributeName: range, KeyType: 'RANGE' },
    ];
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: key(TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey),
      GlobalSecondaryIndexes: TABLE_SCHEMA.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: key(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.timeToLiveAttribute, Enabled: true },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });
});

describe('optional resources', () => {
  let real: Template;
  let synthetic: Template;
  beforeAll(() => {
    real = synth().template;
    synthetic = synth({ routes: SYNTHETIC, functionsDir: FIXTURE_FUNCTIONS }).template;
  }, 60_000);

  it('creates the photo bucket, CDN and each user pool only when some row uses them', () => {
    const uses = (what: 'photos' | 'identityProvider' | 'customerIdentity') =>
      routes.some((row) => row.uses[what]) ? 1 : 0;
    // Besides the front ends' buckets and distributions (test/infra/front-ends.test.ts).
    expect(Object.keys(real.findResources('AWS::S3::Bucket')).filter((id) => id.startsWith('Photos'))).toHaveLength(
      uses('photos'),
    );
    real.resourceCountIs('AWS::CloudFront::Distribution', uses('photos') + 2);
    real.resourceCountIs('AWS::Cognito::UserPool', uses('identityProvider') + uses('customerIdentity'));
    synthetic.resourceCountIs('AWS::Cognito::UserPool', 1);
  });

  it('creates the user pool for the auth rows that use the identity provider, and gives only them its settings', () => {
    for (const row of routes) {
      const env = routeFunctions(real).get(row.handler)!.fn.Properties.Environment.Variables;
      for (const name of ['COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID', 'COGNITO_DOMAIN', 'COGNITO_ISSUER']) {
        expect(env[name] !== undefined, `${routeKey(row)} ${name}`).toBe(Boolean(row.uses.identityProvider));
      }
      expect(env.EMAIL_FROM !== undefined, routeKey(row)).toBe(Boolean(row.uses.email));
    }
  });

  it('serves photos from a private bucket through CloudFront with origin access control', () => {
    synthetic.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    // One for the photos, one per front end.
    synthetic.resourceCountIs('AWS::CloudFront::OriginAccessControl', 3);
    const bucketId = Object.keys(synthetic.findResources('AWS::S3::Bucket')).find((id) => id.startsWith('Photos'))!;
    const { fn } = routeFunctions(synthetic).get('tickets/profile-photo-upload')!;
    expect(actionsOn(statementsOf(synthetic, fn), bucketId).sort()).toEqual([
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    expect(fn.Properties.Environment.Variables).toMatchObject({
      PHOTO_BUCKET: { Ref: bucketId },
      PHOTO_BASE_URL: expect.anything(),
    });
  });

  it('serves only photos/ keys through CloudFront, so waiver signatures in the bucket stay private', () => {
    synthetic.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
      }),
    });
    const handler = new Function(`${PHOTOS_ONLY_FUNCTION}; return handler;`)() as (event: unknown) => {
      statusCode?: number;
    };
    const request = (uri: string) => ({ request: { uri } });
    expect(handler(request('/photos/tickets/7/ab12.jpg'))).toEqual({ uri: '/photos/tickets/7/ab12.jpg' });
    expect(handler(request('/signatures/tickets/7/ab12.png')).statusCode).toBe(404);
    expect(handler(request('/')).statusCode).toBe(404);
  });

  it('answers photos with nosniff and a sandboxing CSP (a response headers policy on the photo distribution)', () => {
    const policies = Object.entries(synthetic.findResources('AWS::CloudFront::ResponseHeadersPolicy')).filter(([id]) =>
      id.startsWith('Photos'),
    );
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0]!;
    expect(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toEqual({
      ContentTypeOptions: { Override: true },
      ContentSecurityPolicy: { ContentSecurityPolicy: PHOTO_CSP, Override: true },
    });
    const photoCdn = Object.values(synthetic.findResources('AWS::CloudFront::Distribution')).find((d) =>
      /profile photos/.test(d.Properties.DistributionConfig.Comment),
    )!;
    expect(photoCdn.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({
      Ref: policyId,
    });
  });

  it("lets the email row send only from the stage sender, through the identity and a configuration set (the identity's default one)", () => {
    const { fn } = routeFunctions(synthetic).get('auth/legacy-forgot-password')!;
    const ses = statementsOf(synthetic, fn).filter((s) => actionsOf([s]).some((a) => a.startsWith('ses:')));
    expect(ses).toEqual([
      expect.objectContaining({
        Action: ['ses:SendEmail', 'ses:SendRawEmail'],
        Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@dev.tickets.example.com' } },
      }),
    ]);
    // SES authorises a send on both: `not authorized to perform ses:SendRawEmail on resource …:configuration-set/…` otherwise.
    const resources = JSON.stringify(ses[0]!.Resource);
    expect(resources).toContain(':identity/*');
    expect(resources).toContain(':configuration-set/*');
    expect(fn.Properties.Environment.Variables.EMAIL_FROM).toBe('no-reply@dev.tickets.example.com');
  });

  it('configures the Cognito client for the code flow back to the API callback', () => {
    // The admin origins (its distribution's domain and dev's extra origins): administrators never sign in on the portal.
    const [admin] = ['admin'].map(
      (name) =>
        Object.entries(synthetic.findResources('AWS::CloudFront::Distribution')).find(
          ([, d]) => d.Properties.DistributionConfig.Comment === `ticketing-dev ${name} front end`,
        )![0],
    );
    const at = (id: string, suffix = '') => ({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id, 'DomainName'] }, ...(suffix ? [suffix] : [])]],
    });
    synthetic.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AllowedOAuthFlows: ['code'],
      GenerateSecret: false,
      CallbackURLs: [
        at(admin!, '/api/v2/auth/callback'),
        'http://localhost:5173/api/v2/auth/callback',
        'http://127.0.0.1:5173/api/v2/auth/callback',
      ],
      // What POST /auth/logout accepts as return_to, plus the vendor-rejection landing page.
      LogoutURLs: [
        at(admin!),
        'http://localhost:5173',
        'http://127.0.0.1:5173',
        at(admin!, '/'),
        'http://localhost:5173/',
        'http://127.0.0.1:5173/',
        at(admin!, '/?error_code=not_vendor_user'),
      ],
    });
    // Both kinds of identity-provider row get the client's settings.
    for (const handler of ['auth/callback', 'my-account/create']) {
      const { fn } = routeFunctions(synthetic).get(handler)!;
      expect(Object.keys(fn.Properties.Environment.Variables), handler).toEqual(
        expect.arrayContaining(['COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID', 'COGNITO_DOMAIN', 'COGNITO_ISSUER']),
      );
      expect(fn.Properties.Environment.Variables.API_BASE_URL, handler).toBeUndefined();
    }
  });

  it('grants sign-in rows no Cognito action, and manage-users rows exactly the admin actions on the one pool', () => {
    const cognitoStatements = (template: Template, handler: string) =>
      statementsOf(template, routeFunctions(template).get(handler)!.fn).filter((s) =>
        actionsOf([s]).some((a) => a.startsWith('cognito-idp:')),
      );
    for (const row of [...routes, ...SYNTHETIC].filter((r) => r.uses.identityProvider === 'sign-in')) {
      expect(cognitoStatements(routes.includes(row) ? real : synthetic, row.handler), routeKey(row)).toEqual([]);
    }
    const admin = cognitoStatements(synthetic, 'my-account/create');
    const poolArn = { 'Fn::GetAtt': [onlyId(synthetic, 'AWS::Cognito::UserPool'), 'Arn'] };
    expect(admin.flatMap((s) => [s.Resource].flat())).toEqual(admin.map(() => poolArn));
    expect(actionsOf(admin).sort()).toEqual([...IDENTITY_PROVIDER_ACTIONS].sort());
  });
});

/** The customer-account rows of the real table, alone: their handlers exist whatever else is in progress. */
const CUSTOMER_ROWS = routes.filter((row) =>
  ['my-account/login', 'my-account/create', 'my-account/get', 'my-account/update'].includes(row.handler),
);

describe("the customers' user pool", () => {
  let template: Template;
  beforeAll(() => {
    template = synth({ routes: CUSTOMER_ROWS }).template;
  }, 60_000);
  const envOf = (handler: string) => routeFunctions(template).get(handler)!.fn.Properties.Environment.Variables;
  const cognitoStatements = (handler: string) =>
    statementsOf(template, routeFunctions(template).get(handler)!.fn).filter((s) =>
      actionsOf([s]).some((a) => a.startsWith('cognito-idp:')),
    );

  it("signs in by email, case-insensitively, with the administrators' password policy and no self sign-up", () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
      MfaConfiguration: 'OFF',
    });
    // The service verifies addresses itself: Cognito sends no codes.
    expect(
      Object.values(template.findResources('AWS::Cognito::UserPool'))[0]!.Properties.AutoVerifiedAttributes ?? [],
    ).toEqual([]);
  });

  it('keeps the prod pool when the stack goes (unprotected until the stage exists: infra/stages.ts), and lets the dev pool go', () => {
    const poolOf = (template: Template) => Object.values(template.findResources('AWS::Cognito::UserPool'))[0]!;
    expect(poolOf(synth({ routes: CUSTOMER_ROWS, context: { stage: 'prod' } }).template)).toMatchObject({
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: { DeletionProtection: 'INACTIVE' },
    });
    expect(poolOf(template)).toMatchObject({
      DeletionPolicy: 'Delete',
      Properties: { DeletionProtection: 'INACTIVE' },
    });
  });

  it('has one app client, without secret or OAuth, allowing password sign-in and refresh only', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const client = Object.values(template.findResources('AWS::Cognito::UserPoolClient'))[0]!.Properties;
    expect(client.ExplicitAuthFlows.sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH']);
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toBeUndefined();
    expect(client.CallbackURLs).toBeUndefined();
    expect(client.WriteAttributes).toEqual(['email']);
  });

  it("gives the customers' pool settings only to its rows, and PORTAL_URL to the rows that mail", () => {
    const poolId = onlyId(template, 'AWS::Cognito::UserPool');
    for (const row of CUSTOMER_ROWS) {
      const env = envOf(row.handler);
      expect(env.CUSTOMER_COGNITO_USER_POOL_ID, routeKey(row)).toEqual(
        row.uses.customerIdentity ? { Ref: poolId } : undefined,
      );
      expect(env.CUSTOMER_COGNITO_CLIENT_ID !== undefined, routeKey(row)).toBe(Boolean(row.uses.customerIdentity));
      // The portal's distribution (test/infra/front-ends.test.ts).
      expect(env.PORTAL_URL, routeKey(row)).toEqual(
        row.uses.email
          ? {
              'Fn::Join': [
                '',
                ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^FrontEndsPortalDistribution/), 'DomainName'] }],
              ],
            }
          : undefined,
      );
      expect(env.COGNITO_USER_POOL_ID, routeKey(row)).toBeUndefined();
    }
  });

  it('grants the sign-in row no Cognito action, and the manage-users row exactly the admin actions user-admin calls, on this pool only', () => {
    const signIn = CUSTOMER_ROWS.filter((row) => row.uses.customerIdentity === 'sign-in');
    const manage = CUSTOMER_ROWS.filter((row) => row.uses.customerIdentity === 'manage-users');
    expect(signIn.map((row) => row.handler)).toEqual(['my-account/login']);
    expect(manage.map((row) => row.handler)).toEqual(['my-account/create']);
    for (const row of [...signIn, ...CUSTOMER_ROWS.filter((r) => !r.uses.customerIdentity)])
      expect(cognitoStatements(row.handler), routeKey(row)).toEqual([]);
    const admin = cognitoStatements('my-account/create');
    const poolArn = { 'Fn::GetAtt': [onlyId(template, 'AWS::Cognito::UserPool'), 'Arn'] };
    expect(admin.flatMap((s) => [s.Resource].flat())).toEqual(admin.map(() => poolArn));
    expect(actionsOf(admin).sort()).toEqual([...CUSTOMER_IDENTITY_ACTIONS].sort());
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    expect(nagFindings({ routes: CUSTOMER_ROWS })).toEqual([]);
  });
});

describe('cdk-nag', () => {
  // A finding that is an error also makes the synth itself throw (in-memory apps).
  it('reports nothing unacknowledged for the real or the synthetic route table', () => {
    expect(nagFindings()).toEqual([]);
    expect(nagFindings({ routes: SYNTHETIC, functionsDir: FIXTURE_FUNCTIONS })).toEqual([]);
  });
});

describe('stages', () => {
  it('rejects an unknown stage, naming the valid ones', () => {
    expect(() => createApp({ context: { stage: 'qa' } })).toThrow(/unknown stage "qa".*dev, staging, prod/);
  });

  it('rejects a missing stage', () => {
    expect(() => createApp()).toThrow(/no stage.*-c stage=/);
  });

  it('keeps the prod table (unprotected until the stage exists: infra/stages.ts), and lets dev tables go', () => {
    // TableV2 puts deletion protection on the replica.
    synth({ context: { stage: 'prod' } }).template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
    synth().template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] }),
    });
  });

  it('takes extra allowed origins from context for CORS and the functions alike', () => {
    const origins = 'https://admin.qa.example.org,https://my.qa.example.org';
    // Every function takes them alike: the sample's rows stand for the route table.
    const { template } = synth({ context: { extraOrigins: origins }, routes: ROUTE_SAMPLE });
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: origins.split(','), AllowCredentials: true }),
    });
    for (const { fn } of routeFunctions(template).values()) {
      // After each front end's origin, for both audiences (test/infra/front-ends.test.ts).
      const { ADMIN_ORIGINS, PORTAL_ORIGINS } = fn.Properties.Environment.Variables;
      for (const value of [ADMIN_ORIGINS, PORTAL_ORIGINS])
        expect(JSON.stringify(value)).toMatch(new RegExp(`,${origins}"\\]\\]}$`));
    }
  });

  it('rejects an extra origin that is not exactly scheme://host[:port]', () => {
    expect(() => createApp({ context: { stage: 'dev', extraOrigins: 'https://admin.qa.example.org/app' } })).toThrow(
      /extra origin/,
    );
  });

  it('rejects a plain-http extra origin other than localhost', () => {
    expect(() => createApp({ context: { stage: 'dev', extraOrigins: 'http://evil.example' } })).toThrow(
      /must use https/,
    );
  });

  it('refuses identity-provider login when no row uses the identity provider', () => {
    const withoutIdp = routes.filter((row) => !row.uses.identityProvider);
    expect(() => synth({ context: { siteAuthMethod: 'idp' }, routes: withoutIdp })).toThrow(/SITE_AUTH_METHOD=idp/);
  });

  it('deploys the real route table in identity-provider mode', () => {
    const { template } = synth({ context: { siteAuthMethod: 'idp' } });
    for (const { fn } of routeFunctions(template).values()) {
      expect(fn.Properties.Environment.Variables.SITE_AUTH_METHOD).toBe('idp');
    }
  });
});
