import { SignJWT, base64url } from 'jose';
import { issueToken, AUDIENCES, type Audience } from '#shared/auth/tokens';
import { epochSeconds } from '#shared/clock';
import { PERMISSIONS, type Permission } from '#shared/routes';

/** Tokens for tests: real ones from the service's issuer, and each kind of bad one. */
export function adminToken(permissions: readonly Permission[] = PERMISSIONS, id = 999_001): Promise<string> {
  return issueToken({ kind: 'admin', id, login: `test-admin-${id}`, permissions: [...permissions], vendorUser: false, authTime: epochSeconds() });
}

export function customerToken(id = 999_101): Promise<string> {
  return issueToken({ kind: 'customer', id, email: `customer-${id}@test.local`, authTime: epochSeconds() });
}

const secret = () => new TextEncoder().encode(process.env.JWT_SECRET);

/** Signed with the right key but already expired. */
export function expiredToken(audience: Audience = 'admin'): Promise<string> {
  const past = epochSeconds() - 7200;
  return new SignJWT({ permissions: [...PERMISSIONS], auth_time: past })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(process.env.JWT_ISSUER!)
    .setAudience(AUDIENCES[audience])
    .setSubject('999001')
    .setIssuedAt(past)
    .setExpirationTime(past + 3600)
    .sign(secret());
}

/** A valid token whose payload was edited after signing (more permissions). */
export async function tamperedToken(): Promise<string> {
  const [head, , signature] = (await adminToken([])).split('.');
  const payload = { sub: '999001', permissions: [...PERMISSIONS], iss: process.env.JWT_ISSUER, aud: AUDIENCES.admin, iat: epochSeconds(), exp: epochSeconds() + 3600, auth_time: epochSeconds() };
  return `${head}.${base64url.encode(JSON.stringify(payload))}.${signature}`;
}

/** An unsigned token (`alg: none`) with every claim the service wants. */
export function unsignedToken(): string {
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  const payload = base64url.encode(
    JSON.stringify({ sub: '999001', permissions: [...PERMISSIONS], iss: process.env.JWT_ISSUER, aud: AUDIENCES.admin, iat: epochSeconds(), exp: epochSeconds() + 3600, auth_time: epochSeconds() }),
  );
  return `${header}.${payload}.`;
}

/** Signed by someone else's key. */
export function foreignToken(): Promise<string> {
  return new SignJWT({ permissions: [...PERMISSIONS], auth_time: epochSeconds() })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(process.env.JWT_ISSUER!)
    .setAudience(AUDIENCES.admin)
    .setSubject('999001')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('another-secret-that-is-long-enough-to-sign-with'));
}
