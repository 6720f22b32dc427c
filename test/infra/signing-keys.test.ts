import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '#shared/routes';
import { readFileSync } from 'node:fs';
import { pinSecretVersion } from '../../bin/keys/stage-file.ts';
import { resolveStage, STAGE_FILES } from '../../infra/stages.ts';
import { bundleInputs } from './bundles.ts';
import { ROUTE_SAMPLE, routeFunctions, statementsOf, synth } from './synth.ts';

/**
 * The key split per function (README "Tokens"): every function verifies with the public
 * JWKS; only rows with `uses.signingKey` may read the private keys, and those rows are
 * exactly the functions whose code signs.
 */
const SECRET_NAME = 'ticketing/dev/signing-keys';
const jwksReference = (version = '') => `{{resolve:secretsmanager:${SECRET_NAME}:SecretString:jwks::${version}}}`;
const secretArn = (stage = 'dev') => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':secretsmanager:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:secret:ticketing/${stage}/signing-keys-??????`,
    ],
  ],
});

describe('the signing keys in the stack of shared/routes.ts', () => {
  let template: Template;
  beforeAll(() => {
    template = synth().template;
  }, 60_000);

  it('marks the issuing rows: every login, the IdP callback and refresh', () => {
    expect(
      routes
        .filter((row) => row.uses.signingKey)
        .map(routeKey)
        .sort(),
    ).toEqual([
      'GET /auth/callback',
      'POST /auth/legacy/login',
      'POST /auth/login',
      'POST /auth/refresh',
      'POST /auth/vendor/login',
      'PUT /my-account',
    ]);
  });

  it('gives every function the public JWKS by dynamic reference, and none the old HS256 secret', () => {
    for (const row of routes) {
      const env = routeFunctions(template).get(row.handler)!.fn.Properties.Environment.Variables;
      expect(env.JWT_PUBLIC_KEYS, routeKey(row)).toBe(jwksReference());
      expect(env, routeKey(row)).not.toHaveProperty('JWT_SECRET');
    }
  });

  it('gives only the issuing rows the secret id and GetSecretValue, on that one secret', () => {
    for (const row of routes) {
      const { fn } = routeFunctions(template).get(row.handler)!;
      const env = fn.Properties.Environment.Variables;
      // Every function also reads the origin-verify secret (front-ends.test.ts; CDK merges the two
      // into one statement): here each (action, resource) pair on the signing keys counts.
      const onSecrets = statementsOf(template, fn)
        .filter((s) => [s.Action].flat().some((action) => action.startsWith('secretsmanager:')))
        .flatMap((s) =>
          [s.Resource].flat().map((resource) => ({ Effect: s.Effect, Action: s.Action, Resource: resource })),
        )
        .filter((s) => JSON.stringify(s.Resource).includes('signing-keys'));
      if (row.uses.signingKey) {
        expect(env.JWT_SIGNING_KEY_SECRET, routeKey(row)).toBe(SECRET_NAME);
        expect(onSecrets, routeKey(row)).toEqual([
          { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: secretArn() },
        ]);
      } else {
        expect(env, routeKey(row)).not.toHaveProperty('JWT_SIGNING_KEY_SECRET');
        expect(onSecrets, routeKey(row)).toEqual([]);
      }
    }
  });

  it('creates no signing key secret: the stage imports the one `npm run keys -- init` made, and no function refers to another', () => {
    const secrets = Object.values(template.findResources('AWS::SecretsManager::Secret'));
    expect(secrets.filter((secret) => JSON.stringify(secret).match(/signing|HS256|token/i))).toEqual([]);
    for (const { fn } of routeFunctions(template).values()) {
      const env = JSON.stringify(fn.Properties.Environment.Variables);
      expect(env.match(/resolve:secretsmanager:[^:]+/g) ?? []).toEqual(
        expect.arrayContaining([`resolve:secretsmanager:${SECRET_NAME}`]),
      );
    }
  });
});

describe('the signing keys after a rotation', () => {
  it("pins every function to the stage file's secret version (npm run keys writes it there), so the deploy changes their environment", () => {
    const version = 'a1b2c3d4-0000-4000-8000-00000000e5f6';
    const dev = structuredClone(STAGE_FILES.dev);
    const pinned = pinSecretVersion(
      readFileSync(new URL('../../infra/stages/dev.ts', import.meta.url), 'utf8'),
      'signingKeys',
      version,
    );
    // What `npm run keys -- rotate` leaves in the file is what the app reads from it.
    expect(pinned).toContain(`signingKeys: '${version}',`);
    dev.secretVersions = { signingKeys: version };
    expect(resolveStage((key) => ({ stage: 'dev' })[key], { ...STAGE_FILES, dev }).signingKeysVersion).toBe(version);
    // Every function takes it alike: the sample's rows stand for the route table.
    const { template } = synth({ context: { signingKeysVersion: version }, routes: ROUTE_SAMPLE });
    for (const { fn } of routeFunctions(template).values()) {
      expect(fn.Properties.Environment.Variables.JWT_PUBLIC_KEYS).toBe(jwksReference(version));
    }
  }, 60_000);
});

describe('the function bundles', () => {
  // The other side of the split: the signing code is in exactly the bundles of the rows that
  // get the secret (every bundle has the Secrets Manager client now, for the origin-verify
  // values). One esbuild run, no output written; tree-shaking drops it from the functions
  // that only verify.
  it('contain the signer exactly when the row has uses.signingKey', async () => {
    const signs = new Map<string, boolean>();
    for (const [handler, inputs] of await bundleInputs(routes)) {
      signs.set(
        handler,
        inputs.some((input) => input.endsWith('shared/identity/services/signing-key.ts')),
      );
    }
    for (const row of routes) expect(signs.get(row.handler), routeKey(row)).toBe(row.uses.signingKey === true);
  }, 120_000);
});
