import { createHash } from 'node:crypto';

/**
 * What an `Idempotency-Key` is scoped to (README "Idempotent retries"): the route (its
 * handler name, from the route row), the caller and the key, so no caller's key can
 * reach another's request. The stack builds it once per request (shared/http/idempotency.ts);
 * the one request record it keys holds the claim, the stored answer and a ticket change's first answer.
 */
export interface IdempotencyScope {
  /** The route's handler name (`tickets/transfer`). */
  route: string;
  caller: { kind: 'admin' | 'customer'; id: number };
  key: string;
}

/** Keys sorted at every level: the same request hashes the same whatever order its members came in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** What "the same request" means: the validated path, query and body. */
export const fingerprintOf = (request: { path: unknown; query: unknown; body: unknown }): string =>
  createHash('sha256')
    .update(JSON.stringify(canonical(request)) ?? '')
    .digest('base64url');
