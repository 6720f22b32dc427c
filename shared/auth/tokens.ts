import type { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { config } from '../config.ts';
import { now, epochSeconds } from '../clock.ts';
import { Unauthenticated } from '../errors.ts';
import { PERMISSIONS, type Permission } from '../routes.ts';

/**
 * The service's own tokens: HS256 (pinned), short-lived, with `iss`, `aud`, `exp`,
 * `iat` and `sub` required. Administrators and customers get distinct audiences, so a
 * customer token can never open an admin route and vice versa.
 */
export const AUDIENCES = { admin: 'ticketing-admin', customer: 'ticketing-customer' } as const;
export type Audience = keyof typeof AUDIENCES;

const ALGORITHM = 'HS256';
export const TOKEN_TTL_SECONDS = 60 * 60;
/** A session can be refreshed until this long after the original sign-in (`auth_time`). */
export const SESSION_LIMIT_SECONDS = 12 * 60 * 60;

export interface AdminPrincipal {
  kind: 'admin';
  id: number;
  login: string;
  permissions: Permission[];
  vendorUser: boolean;
  /** Epoch seconds of the sign-in that started this session. */
  authTime: number;
}

export interface CustomerPrincipal {
  kind: 'customer';
  id: number;
  email: string;
  authTime: number;
}

export type Principal = AdminPrincipal | CustomerPrincipal;

// Imported once: handing jose raw bytes would re-import the key on every request.
// Also signs the OIDC `state` (login-state.ts), under its own audience.
let signingKey: Promise<webcrypto.CryptoKey> | undefined;
export const key = (): Promise<webcrypto.CryptoKey> =>
  (signingKey ??= crypto.subtle.importKey('raw', new TextEncoder().encode(config().JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]));

export async function issueToken(principal: Principal): Promise<string> {
  const claims =
    principal.kind === 'admin'
      ? { login: principal.login, permissions: principal.permissions, vendor_user: principal.vendorUser }
      : { email: principal.email };
  return new SignJWT({ ...claims, auth_time: principal.authTime })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(config().JWT_ISSUER)
    .setAudience(AUDIENCES[principal.kind])
    .setSubject(String(principal.id))
    .setIssuedAt(epochSeconds())
    .setExpirationTime(epochSeconds() + TOKEN_TTL_SECONDS)
    .sign(await key());
}

const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

/**
 * Tokens this warm container has verified. A client sends the same token with every
 * request; answering from here skips the WebCrypto HMAC (a thread-pool hop, most of the
 * middleware's cost per request). Sound because the same string under the same key
 * verifies the same way until `exp`, which is checked again on every hit.
 */
const VERIFIED_CACHE_SIZE = 1000;
const verified = new Map<string, { principal: Principal; exp: number }>();

/** Verifies a token for the given audience; any failure is a 401 that says nothing more. */
export async function verifyToken(token: string, audience: Audience): Promise<Principal> {
  const cacheKey = `${audience}:${token}`;
  const hit = verified.get(cacheKey);
  if (hit && epochSeconds() < hit.exp) return hit.principal;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, await key(), {
      algorithms: [ALGORITHM],
      issuer: config().JWT_ISSUER,
      audience: AUDIENCES[audience],
      requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
      currentDate: now(),
    }));
  } catch {
    verified.delete(cacheKey);
    throw new Unauthenticated('The token is invalid or expired.');
  }
  const principal = toPrincipal(payload, audience);
  // Oldest first out: Map keeps insertion order.
  if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
  verified.set(cacheKey, { principal, exp: payload.exp! });
  return principal;
}

function toPrincipal(payload: JWTPayload, audience: Audience): Principal {
  const id = Number(payload.sub);
  const authTime = payload.auth_time;
  if (!Number.isSafeInteger(id) || typeof authTime !== 'number') throw new Unauthenticated('The token is malformed.');
  if (audience === 'customer') {
    return { kind: 'customer', id, email: String(payload.email ?? ''), authTime };
  }
  const permissions = Array.isArray(payload.permissions) ? payload.permissions.filter(isPermission) : [];
  return {
    kind: 'admin',
    id,
    login: String(payload.login ?? ''),
    permissions,
    vendorUser: payload.vendor_user === true,
    authTime,
  };
}
