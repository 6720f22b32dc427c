import { config } from '../config.ts';

/**
 * CORS for the configured origins (the admin SPA and the customer portal), with
 * credentials so the auth cookie travels. In AWS the HTTP API answers preflights from the
 * same list (infra/); locally `bin/local/server.ts` answers them with `preflightHeaders`.
 */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'x-requested-with'];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
// `idempotent-replayed` tells a browser client its retry was answered from the stored answer (README "Idempotent retries").
export const CORS_EXPOSED_HEADERS = ['deprecation', 'idempotent-replayed', 'link', 'retry-after'];
/** How long a browser may reuse a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 600;

export const isAllowedOrigin = (origin: string | undefined): origin is string =>
  origin !== undefined && config().ALLOWED_ORIGINS.includes(origin);

/** Headers for an actual (non-preflight) response; empty for a foreign or absent origin. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!isAllowedOrigin(origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/** Headers for an OPTIONS preflight, or undefined when the origin is not allowed. */
export function preflightHeaders(origin: string | undefined): Record<string, string> | undefined {
  if (!isAllowedOrigin(origin)) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin',
  };
}
