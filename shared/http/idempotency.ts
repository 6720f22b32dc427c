import { createHash } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from '../schema.ts';
import {
  claimRequest,
  completeRequest,
  releaseRequest,
  type RequestScope,
  type StoredAnswer,
} from '../data/idempotent-requests.ts';
import { keys } from '../data/keys.ts';
import { now } from '../clock.ts';
import { InFlight, Unprocessable, ValidationError } from '../errors.ts';
import { logger } from '../logger.ts';
import type { RouteRow } from '../routes.ts';
import { header, type RouteEvent } from './request.ts';

/**
 * `Idempotency-Key` on the routes marked `idempotent` in shared/routes.ts (README
 * "Idempotent retries"). Runs inside the handler, after authentication and validation, so
 * a refused request claims nothing and a replayed answer still passes through the stack's
 * headers (CORS, security): a middy `before` returning early would skip every `after`.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 visible ASCII characters (it becomes part of a table key). */
const KeySchema = z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters'));

/** An answer body larger than this is not stored (DynamoDB items hold 400 KB): the key is released instead. */
const MAX_STORED_BODY = 300_000;
/** How long a claim blocks retries when the function cannot say how long it may still run. */
const DEFAULT_LOCK_MS = 30_000;

export function idempotencyKeyOf(event: RouteEvent): string | undefined {
  const value = header(event, IDEMPOTENCY_HEADER);
  if (value === undefined) return undefined;
  const parsed = KeySchema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError('The Idempotency-Key header is invalid.', [
      { path: 'headers.idempotency-key', message: parsed.error.issues[0]!.message },
    ]);
  }
  return parsed.data;
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

function callerOf(event: RouteEvent): string {
  const principal = event.principal;
  // Idempotent rows are never public (routes test); a caller-less scope would be shared by everyone.
  if (!principal) throw new Error('Idempotent routes need an authenticated caller.');
  return keys.caller(principal.kind, principal.id);
}

const lockMs = (context: Context | undefined): number => {
  const remaining = context?.getRemainingTimeInMillis?.();
  return typeof remaining === 'number' && remaining > 0 ? remaining : DEFAULT_LOCK_MS;
};

/**
 * Runs `act` once per caller, route and key within 24 h. Without the header it just runs.
 * Same key, same request: the stored answer with `Idempotent-Replayed: true`. Same key,
 * different request: 422. Same key still in flight: 409 with Retry-After. A failure
 * releases the key (errors are not stored), so the retry runs again.
 */
export async function idempotent(
  row: RouteRow,
  event: RouteEvent,
  context: Context | undefined,
  request: { path: unknown; query: unknown; body: unknown },
  act: () => Promise<APIGatewayProxyStructuredResultV2>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const key = idempotencyKeyOf(event);
  if (key === undefined) return act();
  const scope: RequestScope = { route: row.handler, caller: callerOf(event), key };
  // Only these three: the input also carries the event and the caller, which differ on every call.
  const fingerprint = fingerprintOf({ path: request.path, query: request.query, body: request.body });
  const claim = await claimRequest(scope, fingerprint, lockMs(context));
  if (claim.outcome !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new Unprocessable(
        'This Idempotency-Key was used for a different request; use a new key for a new request.',
        'idempotency_key_reused',
      );
    }
    if (claim.outcome === 'in-flight') {
      const seconds = Math.max(1, Math.ceil((claim.lockedUntilMs - now().getTime()) / 1000));
      throw new InFlight('A request with this Idempotency-Key is still being processed.', Math.min(seconds, 60));
    }
    return replay(claim.answer);
  }
  let reply: APIGatewayProxyStructuredResultV2;
  try {
    reply = await act();
  } catch (error) {
    await releaseRequest(scope);
    throw error;
  }
  if ((reply.body?.length ?? 0) > MAX_STORED_BODY) {
    logger.warn('idempotent answer too large to store; key released', {
      route: scope.route,
      bytes: reply.body?.length,
    });
    await releaseRequest(scope);
    return reply;
  }
  const headers = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([name, value]) => [name, String(value)]));
  await completeRequest(scope, {
    status: reply.statusCode ?? 200,
    ...(reply.body !== undefined ? { body: reply.body } : {}),
    headers,
  });
  return reply;
}

const replay = (answer: StoredAnswer): APIGatewayProxyStructuredResultV2 => ({
  statusCode: answer.status,
  ...(answer.body !== undefined ? { body: answer.body } : {}),
  headers: { ...answer.headers, [REPLAYED_HEADER]: 'true' },
});
