import * as z from '#shared/schema';
import { TicketResource } from '#shared/domain/ticket-resource';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { FilePart } from '#shared/http/multipart';
import type { Schemas } from '#shared/http/route';
import { API_PREFIX, routeKey, routes, type RouteRow } from '#shared/routes';

/**
 * The OpenAPI 3.1 document, built from the route table (method, path, access, successor)
 * and each handler's own zod schemas (path, query, body), so it cannot drift from the
 * code. Request schemas are converted as the client sends them (`io: 'input'`: strings
 * on the wire, defaulted fields optional); the Ticket component as the API answers it.
 * A build-time tool: it imports every handler, so no function may import it.
 */

type JsonSchema = z.core.JSONSchema.BaseSchema;
type Json = Record<string, unknown>;

/** A row of the table with the schemas its handler declared (`handler.schemas`). */
export interface RouteOperation {
  row: RouteRow;
  schemas: Schemas;
}

/** Zod schema → JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), without the `$schema` key. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    // A multipart file field is the only schema with no JSON equivalent: document it as binary.
    unrepresentable: ({ zodSchema }) => (zodSchema === FilePart ? { type: 'string', format: 'binary' } : 'throw'),
  });
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * What the table does not say: the routes whose answers carry tickets (documented with
 * the Ticket schema; the rest with the generic envelope) and the success statuses other
 * than 200. The unit test checks every key is a row of the table.
 */
export const TICKET_ANSWERS: Record<string, 'TicketAnswer' | 'TicketPage'> = {
  'GET /tickets': 'TicketPage',
  'GET /tickets/{id}': 'TicketAnswer',
  'PATCH /tickets/{id}': 'TicketAnswer',
  'POST /tickets/{id}/transfer': 'TicketAnswer',
  'POST /tickets/{id}/profile-photo': 'TicketAnswer',
  'DELETE /tickets/{id}/profile-photo': 'TicketAnswer',
};
export const SUCCESS_STATUS: Record<string, number> = {
  'POST /shipping-method': 201,
  'DELETE /tickets/{id}': 204,
  'GET /auth/callback': 302,
};

/** Error answers, each `application/problem+json` with the ProblemDetails schema. */
const ERRORS = {
  400: 'Invalid request: the field problems are in `errors` (paths like `body.name`, `query._limit`).',
  401: 'No token, or a bad or expired one (`WWW-Authenticate: Bearer`).',
  403: 'Not allowed: a missing permission, the other sign-in mode (`SITE_AUTH_METHOD`), or a cookie request failing the CSRF check.',
  404: 'No such resource.',
  409: 'A state conflict (already checked in, bib taken, stale version).',
  413: 'The body is too large.',
  415: 'Wrong media type for the body.',
  500: 'Internal error: only the request id is shown.',
} as const;
type ErrorStatus = keyof typeof ERRORS;

/** The error answers a row can give, from what its row and schemas say it does. */
function errorStatuses(row: RouteRow, schemas: Schemas): ErrorStatus[] {
  const hasPathIds = row.path.includes('{');
  return [
    400,
    ...(row.auth.kind === 'public' ? [] : [401 as const]),
    403,
    ...(hasPathIds ? [404 as const] : []),
    ...(hasPathIds && row.method !== 'GET' ? [409 as const] : []),
    ...(schemas.body ? [413 as const, 415 as const] : []),
    500,
  ];
}

/** `{ type, title, status, detail, instance, errors? }`, as shared/http/problem-details.ts writes it; extension members allowed. */
const ProblemDetails = z.looseObject({
  type: z.string().check(z.describe('`/problems/<slug>`')),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  instance: z.string().check(z.describe('The request path.')),
  errors: z.optional(z.array(z.strictObject({ path: z.string(), message: z.string() }))),
});

const Envelope: JsonSchema = {
  type: 'object',
  description:
    'The answer envelope: `{count, data}` for single answers, `{data}` on the routes the spec shows so, ' +
    '`{totalCount, count, limit, offset, data}` for pages, `{count, data: [{id, status, object?, error?}]}` for bulk routes. ' +
    'The change-password routes answer `{success, message}` without an envelope.',
  properties: {
    totalCount: { type: 'integer' },
    count: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    data: {},
  },
};

function accessText(row: RouteRow): string {
  const { auth } = row;
  if (auth.kind === 'public') return 'Public: no token needed.';
  if (auth.kind === 'customer') return 'A customer token; the caller sees only their own data.';
  return auth.permission ? `An administrator token with the \`${auth.permission}\` permission.` : 'Any administrator token.';
}

/** `shipping-method/bulk-create` → `shippingMethodBulkCreate`. */
const operationId = (handler: string) => handler.replace(/[/-](\w)/g, (_match, letter: string) => letter.toUpperCase());

/** One parameter per property of an object schema. */
function parameters(where: 'path' | 'query', schema: z.ZodMiniType | undefined): Json[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    // Path parameters are always required in OpenAPI.
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

function requestBody(body: z.ZodMiniType, multipart: boolean): Json {
  const mediaType = multipart ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [mediaType]: { schema: jsonSchema(body, 'input') } } };
}

function responses(row: RouteRow, schemas: Schemas): Json {
  const key = routeKey(row);
  const status = SUCCESS_STATUS[key] ?? 200;
  const deprecationHeaders = row.successor
    ? {
        headers: {
          Deprecation: { schema: { type: 'string', const: 'true' } },
          Link: { description: `\`<${API_PREFIX}${row.successor}>; rel="successor-version"\``, schema: { type: 'string' } },
        },
      }
    : {};
  const success =
    status === 204
      ? { description: 'Done; no body.' }
      : status === 302
        ? { description: 'A redirect (`Location`).' }
        : { description: 'Success.', ...deprecationHeaders, content: { 'application/json': { schema: ref(TICKET_ANSWERS[key] ?? 'Envelope') } } };
  // Write routes with `result=none|id|object` answer 204 for `none`.
  const takesResult = schemas.query !== undefined && 'result' in (jsonSchema(schemas.query, 'input').properties ?? {});
  return {
    [status]: success,
    ...(takesResult && status !== 204 ? { 204: { description: 'With `result=none`: done; no body.' } } : {}),
    ...Object.fromEntries(errorStatuses(row, schemas).map((code) => [code, { $ref: `#/components/responses/Problem${code}` }])),
  };
}

function operation({ row, schemas }: RouteOperation): Json {
  const successor = row.successor && routes.find((other) => other.path === row.successor && other.method === row.method);
  const deprecation = row.successor
    ? `Deprecated: use \`${row.method} ${row.successor}\`${successor ? ` (\`${operationId(successor.handler)}\`)` : ''} instead. `
    : '';
  return {
    operationId: operationId(row.handler),
    tags: [row.handler.split('/')[0]],
    description: deprecation + accessText(row),
    ...(row.successor ? { deprecated: true } : {}),
    security: row.auth.kind === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    ...(row.auth.kind === 'admin' && row.auth.permission ? { 'x-permission': row.auth.permission } : {}),
    parameters: [...parameters('path', schemas.path), ...parameters('query', schemas.query)],
    ...(schemas.body ? { requestBody: requestBody(schemas.body, schemas.multipart !== undefined) } : {}),
    responses: responses(row, schemas),
  };
}

export function buildOpenApi(operations: readonly RouteOperation[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    paths[op.row.path] ??= {};
    paths[op.row.path]![op.row.method.toLowerCase()] = operation(op);
  }
  const ticket = jsonSchema(TicketResource, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ticketing and checkout API',
      version: '2',
      description: 'Generated from shared/routes.ts and the handlers\' zod schemas (`npm run openapi`).',
    },
    servers: [{ url: API_PREFIX }],
    tags: [...new Set(operations.map((op) => op.row.handler.split('/')[0]!))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: AUTH_COOKIE,
          description: 'Set by sign-in and refresh. Unsafe methods also need an allowed `Origin` and an `X-Requested-With` header (CSRF).',
        },
      },
      schemas: {
        ProblemDetails: jsonSchema(ProblemDetails, 'output'),
        Envelope,
        Ticket: ticket,
        TicketAnswer: { type: 'object', properties: { data: ref('Ticket') }, required: ['data'], additionalProperties: false },
        TicketPage: {
          type: 'object',
          properties: {
            totalCount: { type: 'integer' },
            count: { type: 'integer' },
            limit: { type: 'integer' },
            offset: { type: 'integer' },
            data: { type: 'array', items: ref('Ticket') },
          },
          required: ['totalCount', 'count', 'limit', 'offset', 'data'],
          additionalProperties: false,
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([code, description]) => [
          `Problem${code}`,
          { description, content: { 'application/problem+json': { schema: ref('ProblemDetails') } } },
        ]),
      ),
    },
  };
}
