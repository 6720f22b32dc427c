import { config } from '../config.ts';
import type { Access } from '../routes.ts';

/**
 * CORS with credentials (so the auth cookie travels), per audience: admin routes answer
 * only the admin SPA's origins (ADMIN_ORIGINS), customer routes only the portal's
 * (PORTAL_ORIGINS), public routes both. In AWS the HTTP API answers preflights from the
 * union (its CORS configuration is per API, not per route: infra/); locally
 * `bin/local/server.ts` answers them with `preflightHeaders`, also from the union. The
 * actual answer's Allow-Origin is what lets a page read it, and that one is per audience.
 */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'x-requested-with'];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
// `idempotent-replayed` tells a browser client its retry was answered from the stored answer (README "Idempotent retries").
// `ratelimit` and `ratelimit-policy`: what a throttled route's caller has left (shared/http/rate-limit-headers.ts).
export const CORS_EXPOSED_HEADERS = [
  'deprecation',
  'idempotent-replayed',
  'link',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
];
/** How long a browser may reuse a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 600;

export type Audience = Access['kind'];

/** The origins a route of this audience accepts (CORS and the cookie CSRF check). */
export function originsFor(audience: Audience): readonly string[] {
  const { ADMIN_ORIGINS, PORTAL_ORIGINS } = config();
  if (audience === 'admin') return ADMIN_ORIGINS;
  if (audience === 'customer') return PORTAL_ORIGINS;
  return [...ADMIN_ORIGINS, ...PORTAL_ORIGINS];
}

export const isAllowedOrigin = (origin: string | undefined, audience: Audience): origin is string =>
  origin !== undefined && originsFor(audience).includes(origin);

/** Headers for an actual (non-preflight) response; empty for a foreign or absent origin. */
export function corsHeaders(origin: string | undefined, audience: Audience): Record<string, string> {
  if (!isAllowedOrigin(origin, audience)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/** Headers for an OPTIONS preflight (any of our origins), or undefined when the origin is not allowed. */
export function preflightHeaders(origin: string | undefined): Record<string, string> | undefined {
  if (!isAllowedOrigin(origin, 'public')) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin',
  };
}
