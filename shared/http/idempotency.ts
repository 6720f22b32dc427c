import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { IdempotencyScope } from '../domain/idempotency.ts';
import { ValidationError } from '../errors.ts';
import type { RouteRow } from '../routes.ts';
import * as z from '../schema.ts';
import { answerOnce, type StoredAnswer } from '../use-cases/idempotent-requests.ts';
import { header, type RouteEvent } from './request.ts';

/**
 * `Idempotency-Key` on the routes marked `idempotent` in shared/routes.ts (README
 * "Idempotent retries"). The one parser of the header: the scope it builds (the row's
 * route, the caller, the key) reaches the handler too, for the ticket changes that also
 * set their first answer on the same request item in their own transaction (check-in,
 * transfer: shared/data/idempotent-requests.ts `firstAnswerUpdate`). Runs inside the
 * handler, after authentication and validation, so a refused request claims nothing and a
 * replayed answer still passes through the stack's headers (CORS, security): a middy
 * `before` returning early would skip every `after`.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 visible ASCII characters (it becomes part of a table key). */
const KEY_MESSAGE = 'must be 1 to 255 visible ASCII characters';
const KeySchema = z.lazy(() =>
  z
    .string()
    .check(z.maxLength(255, { message: KEY_MESSAGE, abort: true }), z.regex(/^[\x21-\x7e]{1,255}$/, KEY_MESSAGE)),
);

/** How long a claim blocks retries when the function cannot say how long it may still run. */
const DEFAULT_LOCK_MS = 30_000;

/** The request's idempotency scope on an `idempotent` row that carries the header; otherwise undefined. 400 on a malformed key. */
export function idempotencyScopeOf(
  row: RouteRow,
  event: Pick<RouteEvent, 'headers' | 'principal'>,
): IdempotencyScope | undefined {
  if (!row.idempotent) return undefined;
  const value = header(event, IDEMPOTENCY_HEADER);
  if (value === undefined) return undefined;
  const parsed = KeySchema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError('The Idempotency-Key header is invalid.', [
      { path: 'headers.idempotency-key', message: parsed.error.issues[0]?.message ?? 'is invalid' },
    ]);
  }
  const principal = event.principal;
  // Idempotent rows are never public (routes test); a caller-less scope would be shared by everyone.
  if (!principal) throw new Error('Idempotent routes need an authenticated caller.');
  return { route: row.handler, caller: { kind: principal.kind, id: principal.id }, key: parsed.data };
}

const lockMs = (context: Context | undefined): number => {
  const remaining = context?.getRemainingTimeInMillis?.();
  return typeof remaining === 'number' && remaining > 0 ? remaining : DEFAULT_LOCK_MS;
};

/** Runs the route once per scope (`answerOnce`); a replay carries `Idempotent-Replayed: true`. */
export async function idempotent(
  scope: IdempotencyScope,
  context: Context | undefined,
  request: { path: unknown; query: unknown; body: unknown },
  act: () => Promise<APIGatewayProxyStructuredResultV2 & { keptBody?: string }>,
): Promise<APIGatewayProxyStructuredResultV2> {
  // Only these three: the input also carries the event and the caller, which differ on every call.
  const { path, query, body } = request;
  let reply: (APIGatewayProxyStructuredResultV2 & { keptBody?: string }) | undefined;
  const { answer, replayed } = await answerOnce(scope, { path, query, body }, lockMs(context), async () => {
    reply = await act();
    return toStored(reply);
  });
  if (!replayed && reply) {
    const { keptBody: _kept, ...live } = reply;
    return live;
  }
  return {
    statusCode: answer.status,
    ...(answer.body !== undefined ? { body: answer.body } : {}),
    headers: { ...answer.headers, [REPLAYED_HEADER]: 'true' },
  };
}

/** What is kept for replays: the answer, with `keptBody` in place of its body when the route gave one (no secret kept). */
const toStored = (reply: APIGatewayProxyStructuredResultV2 & { keptBody?: string }): StoredAnswer => ({
  status: reply.statusCode ?? 200,
  ...(reply.keptBody !== undefined ? { body: reply.keptBody } : reply.body !== undefined ? { body: reply.body } : {}),
  headers: Object.fromEntries(Object.entries(reply.headers ?? {}).map(([name, value]) => [name, String(value)])),
});
