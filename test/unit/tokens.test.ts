import { SignJWT, base64url, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand, signingKeyEnv } from '../../bin/keys/commands.ts';
import { type SecretsManagerForTests, secretsManagerStandIn } from '../support/secrets-manager.ts';
import { newContainer } from '../support/container.ts';

/**
 * The service's own tokens against the Secrets Manager stand-in (in-process, no other
 * service): ES256 with the current key's kid, verified against JWT_PUBLIC_KEYS only.
 */
let tokens: typeof import('#shared/auth/tokens') & typeof import('#shared/identity/services/token-issuer');
let clock: typeof import('#shared/clock');
let secrets: SecretsManagerForTests;
let publicKeys: string;

beforeAll(async () => {
  secrets = await secretsManagerStandIn();
  const { client, env: aws } = secrets;
  const keysEnv = signingKeyEnv(await runKeysCommand(client, 'init', 'unit-tokens'));
  publicKeys = keysEnv.JWT_PUBLIC_KEYS!;
  Object.assign(process.env, aws, keysEnv, {
    STAGE: 'test',
    SITE_AUTH_METHOD: 'legacy',
    JWT_ISSUER: 'https://ticketing.unit/api/v2',
    ADMIN_ORIGINS: 'https://admin.ticketing.unit',
    PORTAL_ORIGINS: 'https://portal.ticketing.unit',
  });
  tokens = { ...(await import('#shared/auth/tokens')), ...(await import('#shared/identity/services/token-issuer')) };
  clock = await import('#shared/clock');
});

afterAll(async () => {
  newContainer();
  await secrets.stop();
});

afterEach(() => clock.resetClock());

const currentKid = () => (JSON.parse(publicKeys) as { keys: Array<{ kid: string }> }).keys[0]!.kid;
const header = (token: string) =>
  JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[0]!))) as Record<string, unknown>;
const admin = () =>
  tokens.issueToken({
    kind: 'admin',
    id: 42,
    login: 'pat',
    permissions: ['tickets:read'],
    vendorUser: false,
    authTime: clock.epochSeconds(),
  });
/** Every claim the service wants, signed with whatever key and algorithm the case needs. */
const claims = () =>
  new SignJWT({ login: 'pat', permissions: ['tickets:read'], auth_time: clock.epochSeconds() })
    .setIssuer(process.env.JWT_ISSUER!)
    .setAudience(tokens.AUDIENCES.admin)
    .setSubject('42')
    .setIssuedAt(clock.epochSeconds())
    .setExpirationTime(clock.epochSeconds() + 600);

describe('token signing', () => {
  it('signs with ES256 under the kid of the first key of JWT_PUBLIC_KEYS', async () => {
    expect(header(await admin())).toEqual({ alg: 'ES256', typ: 'JWT', kid: currentKid() });
  });

  it('answers the expiry it put in the token', async () => {
    const { token, expiresAt } = await tokens.issueSessionToken({
      kind: 'customer',
      id: 7,
      email: 'c@unit.test',
      authTime: clock.epochSeconds(),
    });
    const payload = JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1]!))) as { exp: number };
    expect(expiresAt).toBe(payload.exp);
    expect(expiresAt).toBe(clock.epochSeconds() + tokens.TOKEN_TTL_SECONDS);
  });
});

describe('token verification', () => {
  it('answers the principal the token was issued for, again on a repeated request', async () => {
    const token = await admin();
    const first = await tokens.verifyToken(token, 'admin');
    expect(first).toMatchObject({ kind: 'admin', id: 42, login: 'pat', permissions: ['tickets:read'] });
    expect(await tokens.verifyToken(token, 'admin')).toEqual(first);
  });

  it('refuses a token once it has expired, even after it was verified before', async () => {
    const token = await admin();
    await tokens.verifyToken(token, 'admin');
    clock.advanceClock((tokens.TOKEN_TTL_SECONDS + 1) * 1000);
    await expect(tokens.verifyToken(token, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a token verified for one audience when it is presented for the other', async () => {
    const token = await admin();
    await tokens.verifyToken(token, 'admin');
    await expect(tokens.verifyToken(token, 'customer')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a token whose kid is not in JWT_PUBLIC_KEYS', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await claims().setProtectedHeader({ alg: 'ES256', kid: 'unknown-kid' }).sign(privateKey);
    await expect(tokens.verifyToken(token, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a token signed by another key under the current kid', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await claims().setProtectedHeader({ alg: 'ES256', kid: currentKid() }).sign(privateKey);
    await expect(tokens.verifyToken(token, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses an HS256 token keyed with the public key (algorithm confusion)', async () => {
    const jwk = (JSON.parse(publicKeys) as { keys: Array<Record<string, string>> }).keys[0]!;
    // The classic attack: the verifier's public key material used as an HMAC secret.
    for (const secret of [publicKeys, JSON.stringify(jwk), jwk.x!]) {
      const token = await claims()
        .setProtectedHeader({ alg: 'HS256', kid: currentKid() })
        .sign(new TextEncoder().encode(secret));
      await expect(tokens.verifyToken(token, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
    }
  });

  it('refuses an unsigned token (alg none)', async () => {
    const [, payload] = (await admin()).split('.');
    const head = base64url.encode(JSON.stringify({ alg: 'none', kid: currentKid() }));
    await expect(tokens.verifyToken(`${head}.${payload}.`, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
