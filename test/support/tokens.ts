import { SignJWT, base64url, generateKeyPair } from 'jose';
import { ALGORITHM } from '#shared/public-keys';
import { currentSigningKey } from '#shared/identity/services/signing-key';
import { issueToken } from '#shared/identity/services/token-issuer';
import { AUDIENCES, type Audience } from '#shared/auth/tokens';
import { epochSeconds } from '#shared/clock';
import { PERMISSIONS, type Permission } from '#shared/auth/permissions';

/**
 * Tokens for tests: real ones from the service's issuer, and each kind of bad one. An
 * administrator's token names an id (no record needed); `eventScope` limits it to those events.
 */
export function adminToken(
  permissions: readonly Permission[] = PERMISSIONS,
  id = 999_001,
  { eventScope }: { eventScope?: number[] } = {},
): Promise<string> {
  return issueToken({
    kind: 'admin',
    id,
    login: `test-admin-${id}`,
    permissions: [...permissions],
    vendorUser: false,
    authTime: epochSeconds(),
    ...(eventScope ? { eventScope } : {}),
  });
}

/** A customer's token: for an account's id and address, under a session version if one is given. */
export function customerToken(
  id = 999_101,
  { email = `customer-${id}@test.local`, sessionVersion }: { email?: string; sessionVersion?: number } = {},
): Promise<string> {
  return issueToken({
    kind: 'customer',
    id,
    email,
    authTime: epochSeconds(),
    ...(sessionVersion === undefined ? {} : { sessionVersion }),
  });
}

/** Signed with the right key but already expired. */
export async function expiredToken(audience: Audience = 'admin'): Promise<string> {
  const past = epochSeconds() - 7200;
  const { kid, key } = await currentSigningKey();
  return new SignJWT({ permissions: [...PERMISSIONS], auth_time: past })
    .setProtectedHeader({ alg: ALGORITHM, kid })
    .setIssuer(process.env.JWT_ISSUER!)
    .setAudience(AUDIENCES[audience])
    .setSubject('999001')
    .setIssuedAt(past)
    .setExpirationTime(past + 3600)
    .sign(key);
}

/** An administrator's claims with every permission, valid for an hour: what a forged token claims. */
const forgedClaims = () =>
  base64url.encode(
    JSON.stringify({
      sub: '999001',
      permissions: [...PERMISSIONS],
      iss: process.env.JWT_ISSUER,
      aud: AUDIENCES.admin,
      iat: epochSeconds(),
      exp: epochSeconds() + 3600,
      auth_time: epochSeconds(),
    }),
  );

/** A valid token whose payload was edited after signing (more permissions). */
export async function tamperedToken(): Promise<string> {
  const [head, , signature] = (await adminToken([])).split('.');
  return `${head}.${forgedClaims()}.${signature}`;
}

/** An unsigned token (`alg: none`) with every claim the service wants. */
export function unsignedToken(): string {
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  return `${header}.${forgedClaims()}.`;
}

/** Signed by someone else's key, under the `kid` of the service's current one. */
export async function foreignToken(): Promise<string> {
  const { kid } = await currentSigningKey();
  const { privateKey } = await generateKeyPair(ALGORITHM);
  return new SignJWT({ permissions: [...PERMISSIONS], auth_time: epochSeconds() })
    .setProtectedHeader({ alg: ALGORITHM, kid })
    .setIssuer(process.env.JWT_ISSUER!)
    .setAudience(AUDIENCES.admin)
    .setSubject('999001')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
}

/** The claims of a token (not verified): `expiresAt` in the login and refresh answers must equal its `exp`. */
export const claimsOf = (token: string): { exp: number; iat: number } =>
  JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1]!))) as { exp: number; iat: number };
export const expOf = (token: string): number => claimsOf(token).exp;
