import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey, publicHalf } from '#shared/auth/key-set';
import { closedPort } from '../support/faults.ts';

/**
 * The id-token checks the callback relies on, against a JWKS served locally: cognito-local
 * drops the nonce, so the nonce rules are proven here rather than in the code-flow tests.
 */
const ISSUER = 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_unit';
const CLIENT = 'unit-client';
let server: Server;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let verifyIdToken: (
  idToken: string,
  nonce: string,
) => Promise<import('#shared/identity/services/identity-provider').ProviderIdentity | undefined>;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'unit', alg: 'RS256', use: 'sig' };
  server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    STAGE: 'test',
    SITE_AUTH_METHOD: 'idp',
    JWT_PUBLIC_KEYS: JSON.stringify({ keys: [publicHalf(await generateSigningKey())] }),
    JWT_ISSUER: 'https://ticketing.test/api/v2',
    ADMIN_ORIGINS: 'https://admin.ticketing.test',
    PORTAL_ORIGINS: 'https://portal.ticketing.test',
    AWS_REGION: 'us-east-1',
    COGNITO_USER_POOL_ID: 'us-east-1_unit',
    COGNITO_CLIENT_ID: CLIENT,
    COGNITO_DOMAIN: 'https://unit.auth.us-east-1.amazoncognito.com',
    COGNITO_ISSUER: ISSUER,
    COGNITO_JWKS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    ADMIN_UI_URL: 'https://admin.ticketing.test',
  });
  const idp = await import('#shared/identity/services/identity-provider');
  verifyIdToken = (idToken, nonce) => idp.verifyIdToken(idp.adminAppClient(), idToken, nonce);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function idToken(
  claims: Record<string, unknown> = {},
  options: { key?: CryptoKey; audience?: string; issuer?: string; expires?: string } = {},
) {
  return new SignJWT({
    token_use: 'id',
    email: 'staff@test.local',
    email_verified: true,
    'cognito:username': 'uuid-1',
    nonce: 'the-nonce',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'unit' })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? CLIENT)
    .setSubject('sub-1')
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '5m')
    .sign(options.key ?? signingKey);
}

describe('id token verification', () => {
  it("accepts a token of the pool, for our client, carrying the login's nonce", async () => {
    expect(await verifyIdToken(await idToken(), 'the-nonce')).toEqual({
      sub: 'sub-1',
      username: 'uuid-1',
      email: 'staff@test.local',
      emailVerified: true,
    });
  });

  it("refuses another login's nonce, and a missing nonce while nonces are required", async () => {
    expect(await verifyIdToken(await idToken(), 'another-nonce')).toBeUndefined();
    expect(await verifyIdToken(await idToken({ nonce: undefined }), 'the-nonce')).toBeUndefined();
  });

  it.each([
    ['an access token', () => idToken({ token_use: 'access' })],
    ['a token for another client', () => idToken({}, { audience: 'other-client' })],
    [
      'a token of another issuer',
      () => idToken({}, { issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_other' }),
    ],
    ['an expired token', () => idToken({}, { expires: '-1m' })],
    ['a token signed with another key', () => idToken({}, { key: otherKey })],
  ])('refuses %s', async (_name, make) => {
    expect(await verifyIdToken(await make(), 'the-nonce')).toBeUndefined();
  });
});

describe('an unreachable identity provider is a 503, not a refused login', () => {
  it('the JWKS cannot be fetched: DependencyUnavailable (identity provider)', async () => {
    const idp = await import('#shared/identity/services/identity-provider');
    const client = { ...idp.adminAppClient(), jwksUrl: `http://127.0.0.1:${await closedPort()}/jwks.json` };
    await expect(idp.verifyIdToken(client, await idToken(), 'the-nonce')).rejects.toMatchObject({
      kind: 'unavailable',
      dependency: 'identity provider',
    });
  });

  it('the token endpoint is unreachable or answers 5xx: DependencyUnavailable; a 4xx is a refused code', async () => {
    const idp = await import('#shared/identity/services/identity-provider');
    const statuses = [503, 400];
    const endpoint = createServer((_request, response) => {
      response.statusCode = statuses.shift()!;
      response.end('{}');
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const at = (domain: string) =>
        idp.exchangeCode(
          { ...idp.adminAppClient(), domain },
          'code',
          'verifier',
          'https://admin.ticketing.test/api/v2/auth/callback',
        );
      const answering = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
      await expect(at(answering)).rejects.toMatchObject({ kind: 'unavailable', dependency: 'identity provider' });
      await expect(at(answering)).resolves.toBeUndefined();
      await expect(at(`http://127.0.0.1:${await closedPort()}`)).rejects.toMatchObject({
        kind: 'unavailable',
        dependency: 'identity provider',
      });
    } finally {
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });
});
