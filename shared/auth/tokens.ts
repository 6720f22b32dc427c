import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { config } from '../config.ts';
import { now, epochSeconds } from '../clock.ts';
import { Unauthenticated } from '../errors.ts';
import { PERMISSIONS, type Permission } from './permissions.ts';
import { ALGORITHM } from '../public-keys.ts';

/**
 * The service's own tokens: ES256 (pinned) with a `kid`, short-lived, with `iss`, `aud`,
 * `exp`, `iat` and `sub` required. Administrators and customers get distinct audiences,
 * so a customer token can never open an admin route and vice versa.
 *
 * Verification uses the public JWKS in JWT_PUBLIC_KEYS (every key in it: current and
 * previous); signing the private key of its first key (token-issuer.ts, imported by the
 * issuing functions only, so no other bundle carries the Secrets Manager client). README
 * "Rotating the signing key".
 */
export const AUDIENCES = { admin: 'ticketing-admin', customer: 'ticketing-customer' } as const;
export type Audience = keyof typeof AUDIENCES;

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
  /** The account's session version when the token was issued (claim `sv`, absent = 0); see session-check.ts. */
  sessionVersion?: number;
  /** Epoch seconds the token was issued (`iat`): session-check.ts trusts a young one without a read. */
  issuedAt?: number;
  /** The events this administrator is limited to (claim `events`); absent = every event (identity/use-cases/event-scope.ts). */
  eventScope?: number[];
}

export interface CustomerPrincipal {
  kind: 'customer';
  id: number;
  email: string;
  authTime: number;
  sessionVersion?: number;
  issuedAt?: number;
}

export type Principal = AdminPrincipal | CustomerPrincipal;

type Jwks = ReturnType<typeof createLocalJWKSet>;

/**
 * The verifier of the current JWT_PUBLIC_KEYS with its cache of verified tokens, rebuilt
 * whenever the parsed configuration changes (a new container in AWS; startNewContainer
 * in tests). The cache belongs to one key set, so a token of a key retired from the set
 * can never be answered from it.
 */
let verifier: { source: object; jwks: Jwks; verified: Map<string, { principal: Principal; exp: number }> } | undefined;

function currentVerifier() {
  const source = config().JWT_PUBLIC_KEYS;
  if (verifier?.source !== source) verifier = { source, jwks: createLocalJWKSet(source), verified: new Map() };
  return verifier;
}

/** Also verifies the OIDC `state` (login-state.ts): the same keys, another audience. */
export const verificationKeys = (): Jwks => currentVerifier().jwks;

const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

/**
 * Tokens this warm container has verified (per key set, see `currentVerifier`). A client
 * sends the same token with every request; answering from here skips the ECDSA
 * verification (a thread-pool hop, most of the middleware's cost per request). Sound
 * because the same string under the same keys verifies the same way until `exp`, which
 * is checked again on every hit.
 */
const VERIFIED_CACHE_SIZE = 1000;

/** Verifies a token for the given audience; any failure is a 401 that says nothing more. */
export async function verifyToken(token: string, audience: Audience): Promise<Principal> {
  const { jwks, verified } = currentVerifier();
  const cacheKey = `${audience}:${token}`;
  const hit = verified.get(cacheKey);
  if (hit && epochSeconds() < hit.exp) return hit.principal;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, jwks, {
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
  const issuedAt = payload.iat;
  // Tokens issued before session versions existed carry none: version 0, what every record starts at.
  const sessionVersion = payload.sv ?? 0;
  if (
    !Number.isSafeInteger(id) ||
    typeof authTime !== 'number' ||
    typeof issuedAt !== 'number' ||
    !Number.isSafeInteger(sessionVersion)
  ) {
    throw new Unauthenticated('The token is malformed.');
  }
  if (audience === 'customer') {
    return {
      kind: 'customer',
      id,
      email: String(payload.email ?? ''),
      authTime,
      sessionVersion: sessionVersion as number,
      issuedAt,
    };
  }
  const permissions = Array.isArray(payload.permissions) ? payload.permissions.filter(isPermission) : [];
  // A scope that does not parse must not widen to "every event": refuse the token.
  const events = payload.events;
  if (events !== undefined && !(Array.isArray(events) && events.every((id) => Number.isSafeInteger(id)))) {
    throw new Unauthenticated('The token is malformed.');
  }
  return {
    kind: 'admin',
    id,
    login: String(payload.login ?? ''),
    permissions,
    vendorUser: payload.vendor_user === true,
    authTime,
    sessionVersion: sessionVersion as number,
    issuedAt,
    ...(events !== undefined ? { eventScope: events as number[] } : {}),
  };
}
