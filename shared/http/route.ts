import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from '../schema.ts';
import type { AdminPrincipal, CustomerPrincipal } from '../auth/tokens.ts';
import type { IdempotencyScope } from '../domain/idempotency.ts';
import { API_PREFIX } from '../api-prefix.ts';
import { findRoute, type AccessKindOf, type RouteKey, type RowOf } from '../routes.ts';
import { authenticate } from './authenticate.ts';
import { logger } from '../logger.ts';
import { requestEnd } from '../request-end.ts';
import { idempotencyScopeOf, idempotent } from './idempotency.ts';
import { originVerify } from './origin-verify.ts';
import type { MultipartForm } from './multipart-form.ts';
import { parseBody } from './parse-body.ts';
import { problemDetails } from './problem-details.ts';
import { rateLimitHeaders, withRateLimitHeaders } from './rate-limit-headers.ts';
import type { RouteEvent } from './request.ts';
import { responseHeaders } from './response-headers.ts';
import { parsePart } from './validate.ts';

/** What a handler returns; `route` turns it into the API Gateway answer. */
export interface Reply {
  status?: number;
  /** Serialised as JSON; omitted (and status 204 by default) when undefined. */
  body?: unknown;
  /**
   * A binary answer instead of `body` (a printed ticket's PDF): sent base64-encoded with `isBase64Encoded`, as
   * API Gateway's HTTP API hands a Lambda's binary body to the client (the local server decodes it the same way).
   */
  binary?: { contentType: string; bytes: Uint8Array };
  headers?: Record<string, string>;
  cookies?: string[];
  /**
   * On an `idempotent` row: the body the idempotency store keeps for replays instead of `body`
   * (a secret shown once is never stored: POST /webhooks).
   */
  replayBody?: unknown;
}

export interface Schemas<
  P extends z.ZodMiniType = z.ZodMiniType,
  Q extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
> {
  path?: P;
  query?: Q;
  /** A JSON body schema; without one the route refuses any body. */
  body?: B;
  /** The body is multipart/form-data, not JSON (`multipartForm(limits)`); `body` validates its fields. */
  multipart?: MultipartForm;
  /**
   * The JSON body reaches the handler as its text in `event.body`, parsed by nothing before it (a signature
   * covers its bytes: the Stripe webhook, which verifies first); `body` then only documents it.
   */
  raw?: true;
  /** The success status when not 200: 201 create, 204 no body, 302 redirect. */
  status?: number;
  /** The success answer is binary of this media type (a Reply's `binary`), not JSON: for the OpenAPI document. */
  binary?: string;
}

/** Who calls a route, by the row's access kind: nobody known on public routes, maybe nobody on the logouts (`signOut`). */
export type CallerOf<K extends RouteKey> = RowOf<K>['auth'] extends { signOut: true }
  ? AdminPrincipal | undefined
  : { public: undefined; admin: AdminPrincipal; customer: CustomerPrincipal }[AccessKindOf<K>];

export interface RouteInput<P, Q, B, C> {
  path: P;
  query: Q;
  body: B;
  /** The authenticated caller, typed from the route's row (`authenticate` guarantees it). */
  caller: C;
  /** On an `idempotent` row called with an `Idempotency-Key`: its scope (the stack replays; a ticket change also stores its answer with it). */
  idempotency: IdempotencyScope | undefined;
  event: RouteEvent;
}

const empty = z.lazy(() => z.strictObject({}));

function toResult(reply: Reply): APIGatewayProxyStructuredResultV2 {
  if (reply.binary) {
    return {
      statusCode: reply.status ?? 200,
      headers: { 'Content-Type': reply.binary.contentType, ...reply.headers },
      ...(reply.cookies?.length ? { cookies: reply.cookies } : {}),
      body: Buffer.from(reply.binary.bytes).toString('base64'),
      isBase64Encoded: true,
    };
  }
  const hasBody = reply.body !== undefined;
  return {
    statusCode: reply.status ?? (hasBody ? 200 : 204),
    headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...reply.headers },
    ...(reply.cookies?.length ? { cookies: reply.cookies } : {}),
    ...(hasBody ? { body: JSON.stringify(reply.body) } : {}),
  };
}

/**
 * Builds a route's Lambda handler: one middy stack for every route. The route key
 * (`METHOD /path`) finds the row in `shared/routes.ts`, which says who may call it.
 * Order: logging context → origin check (came through CloudFront) → authentication and permission → body parsing → validation
 * → the use-case; problem details and response headers wrap everything, errors included.
 */
export function route<
  K extends RouteKey,
  P extends z.ZodMiniType = typeof empty,
  Q extends z.ZodMiniType = typeof empty,
  B extends z.ZodMiniType = z.ZodMiniUndefined,
>(
  key: K,
  schemas: Schemas<P, Q, B>,
  useCase: (input: RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>, CallerOf<K>>) => Promise<Reply>,
) {
  const row = findRoute(key);
  const deprecation: Record<string, string> = row.successor
    ? { Deprecation: 'true', Link: `<${API_PREFIX}${row.successor}>; rel="successor-version"` }
    : {};

  const base = async (event: RouteEvent, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const input = {
      path: parsePart('path', schemas.path ?? empty, event.pathParameters ?? {}),
      query: parsePart('query', schemas.query ?? empty, event.queryStringParameters ?? {}),
      body: schemas.body && !schemas.raw ? parsePart('body', schemas.body, event.body) : undefined,
      caller: event.principal,
      idempotency: idempotencyScopeOf(row, event),
      event,
    } as RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>, CallerOf<K>>;
    const act = async (): Promise<APIGatewayProxyStructuredResultV2 & { keptBody?: string }> => {
      const { replayBody, ...reply } = await useCase(input);
      const result = toResult({ ...reply, headers: { ...deprecation, ...reply.headers } });
      return replayBody === undefined ? result : { ...result, keptBody: JSON.stringify(replayBody) };
    };
    // Rows marked `idempotent` honour an Idempotency-Key: a retry gets the first answer instead of acting twice.
    // The rate-limit budgets the use case counts ride on its answer, or on its problem (rateLimitHeaders).
    const once = async () => {
      const { keptBody: _kept, ...result } = await act();
      return result;
    };
    return withRateLimitHeaders(() =>
      input.idempotency ? idempotent(input.idempotency, context, input, act) : once(),
    );
  };

  const handler = middy<RouteEvent, APIGatewayProxyStructuredResultV2, Error, Context>(base)
    .use(logger.requestContext())
    // Early in the stack so its `after` runs last: everything the request recorded is published, errors included.
    .use(requestEnd())
    .use(responseHeaders(row.auth.kind))
    // Before problemDetails, so its onError runs after the problem answer exists.
    .use(rateLimitHeaders())
    .use(problemDetails())
    .use(originVerify())
    .use(authenticate(row.auth))
    .use(
      parseBody(
        schemas.multipart ? { multipart: schemas.multipart } : schemas.raw ? 'raw' : schemas.body ? 'json' : 'none',
      ),
    );
  // `schemas` ride along for the OpenAPI generator (bin/openapi.ts) and the tests, which also read the
  // module's `answer`; `status`, like the answer, describes what the use-case's Reply carries, it does not shape it.
  return Object.assign(handler, { routeKey: key, schemas });
}
