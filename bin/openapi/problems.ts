import type { RouteRow } from '#shared/routes';
import type { RouteDoc } from './catalogue.ts';

/**
 * The problem answers (RFC 9457, `application/problem+json`) each operation documents.
 * Most come from the middy stack every route runs (shared/http/route.ts), so they follow
 * from the row and its schemas: 400 (query, path, a body where none is taken, a bad
 * `Idempotency-Key`), 401 (authenticate), 403 (origin check, CSRF, permission), 413/415
 * (body parsing), 429 (the gateway's stage throttle on any route), 500, 503. The rest
 * (a 404 without ids in the path, a login's 401, the 409 reasons) come from the catalogue.
 */

type Json = Record<string, unknown>;

// Not imported from shared/http/problem-details.ts: it loads the logger, which reads the environment
// before loadRouteOperations() fills it in. test/unit/openapi.test.ts checks both against it.
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const MAX_LISTED_ERRORS = 20;

export const PROBLEM = { $ref: '#/components/schemas/ProblemDetails' };
const problemContent = (schema: Json = PROBLEM) => ({ [PROBLEM_CONTENT_TYPE]: { schema } });

const RETRY_AFTER = { $ref: '#/components/headers/RetryAfter' };

/** Shared by every operation that can give them: referenced as `#/components/responses/Problem<status>`. */
export const PROBLEM_RESPONSES = {
  Problem400: {
    description: `Invalid request: each field problem is in \`errors\` (paths like \`body.name\`, \`query._limit\`; at most ${MAX_LISTED_ERRORS}, \`errorsNotListed\` counts the rest).`,
    content: problemContent(),
  },
  Problem401: {
    description: 'No token, or a bad, expired or ended one; on a login, wrong credentials.',
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
    content: problemContent(),
  },
  Problem403: {
    description:
      'Not allowed: a missing permission (or a stage-wide one for an administrator limited to some events), the other sign-in mode, a cookie request failing the CSRF check (`error=csrf_rejected`), or a request that did not come through the front-end origin (`error=origin_rejected`).',
    content: problemContent(),
  },
  Problem404: {
    description: "No such resource (or outside the caller's event scope or own data).",
    content: problemContent(),
  },
  Problem413: { description: 'The body (or a file or field in it) is too large.', content: problemContent() },
  Problem415: { description: 'Wrong media type for the body.', content: problemContent() },
  Problem429: {
    description:
      'Too many requests: a limit of the route (problem details, with `Retry-After`) or the API Gateway stage throttle (`{"message":"Too Many Requests"}`, no `Retry-After`).',
    headers: { 'Retry-After': RETRY_AFTER },
    content: {
      ...problemContent(),
      'application/json': {
        schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
    },
  },
  Problem500: { description: 'Internal error: only the request id is shown (`requestId`).', content: problemContent() },
  Problem503: {
    description:
      'A dependency (DynamoDB, S3, SES, the identity provider) is unavailable for now: try again after `Retry-After` seconds.',
    headers: { 'Retry-After': RETRY_AFTER },
    content: problemContent(),
  },
} as const;

/** A Structured Field list of `"<policy>";<key>=<integer>;...` members, as shared/http/rate-limit-headers.ts writes it. */
const budgetList = (keys: string) => {
  const member = `"[a-z_]+"${keys
    .split(',')
    .map((key) => `;${key}=\\d+`)
    .join('')}`;
  return `^${member}(, ${member})*$`;
};

export const HEADERS = {
  RateLimitPolicy: {
    description:
      'The budgets this request was counted against (draft-ietf-httpapi-ratelimit-headers-10): per policy, its quota `q` (requests, or failed attempts on a login) in a window of `w` seconds, e.g. `"forgot_password_address";q=3;w=86400`. On every answer of the route after the budgets were counted (not on a 400 or 403 refused before).',
    schema: { type: 'string', maxLength: 1024, pattern: budgetList('q,w') },
  },
  RateLimit: {
    description:
      'What is left of each budget in `RateLimit-Policy` after this request: `r` units remaining, back in `t` seconds (the oldest counted unit leaves the window, or a lock-out ends), e.g. `"forgot_password_address";r=2;t=86400`. `r=0`: the next request is refused with 429 until then.',
    schema: { type: 'string', maxLength: 1024, pattern: budgetList('r,t') },
  },
  AccessControlAllowOrigin: {
    description:
      "The request's `Origin` when it is one of the front-end origins of the route's audience (with `Access-Control-Allow-Credentials: true`); absent otherwise, so no other site's page can read the answer.",
    schema: { type: 'string', format: 'uri', maxLength: 2048 },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^\\d+$' } },
  WWWAuthenticate: { description: '`Bearer error="invalid_token"`.', schema: { type: 'string' } },
  Deprecation: {
    description: 'The route is deprecated (RFC 9745).',
    required: true,
    schema: { type: 'string', const: 'true' },
  },
  Link: {
    description: 'The successor: `</api/v2/...>; rel="successor-version"`.',
    required: true,
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', const: 'true' },
  },
} as const;

/** A problem whose `reason` is one of the listed codes. */
const withReason = (reasons: readonly string[]): Json => ({
  allOf: [
    PROBLEM,
    { type: 'object', properties: { reason: { type: 'string', enum: [...new Set(reasons)] } }, required: ['reason'] },
  ],
});

const ref = (status: number) => ({ $ref: `#/components/responses/Problem${status}` });

/** Every problem answer of one operation, by status. */
export function problemResponses(row: RouteRow, doc: RouteDoc, takesBody: boolean): Record<string, Json> {
  const conflicts = [...(doc.conflicts ?? []), ...(row.idempotent ? ['request_in_flight'] : [])];
  const errors = new Set<number>(doc.errors ?? []);
  const answers: Record<string, Json> = { 400: ref(400) };
  const signOut = row.auth.kind === 'admin' && row.auth.signOut;
  if ((row.auth.kind !== 'public' && !signOut) || errors.has(401)) answers[401] = ref(401);
  answers[403] = ref(403);
  if (row.path.includes('{') || errors.has(404)) answers[404] = ref(404);
  if (conflicts.length) {
    answers[409] = {
      description: `A state conflict; \`reason\` says which.${row.idempotent ? ' `request_in_flight` (with `Retry-After`): a request with the same `Idempotency-Key` is still running.' : ''}`,
      ...(row.idempotent ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: problemContent(withReason(conflicts)),
    };
  }
  if (takesBody) Object.assign(answers, { 413: ref(413), 415: ref(415) });
  if (row.idempotent) {
    answers[422] = {
      description: 'This `Idempotency-Key` was used for a different request (`reason=idempotency_key_reused`).',
      content: problemContent(withReason(['idempotency_key_reused'])),
    };
  }
  return { ...answers, 429: ref(429), 500: ref(500), 503: ref(503) };
}
