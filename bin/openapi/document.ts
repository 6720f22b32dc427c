import * as z from '#shared/schema';
import { ShippingMethodResource } from '#shared/domain/shipping-method-resource';
import { TicketHistoryEntryResource, TicketResource } from '#shared/domain/ticket-resource';
import { TicketWaiverResource } from '#shared/domain/waiver-resource';
import { AdministratorProfileResource, CheckInStatsResource } from '#shared/http/answers';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { FilePart } from '#shared/http/multipart';
import type { Schemas } from '#shared/http/route';
import { API_PREFIX, routeKey, routes, type RouteRow } from '#shared/routes';

/**
 * The OpenAPI 3.1 document, built from the route table (method, path, access, successor)
 * and each handler's own zod schemas (path, query, body, response, status), so it cannot
 * drift from the code. Request schemas are converted as the client sends them
 * (`io: 'input'`: strings on the wire, defaulted fields optional); answers as the API
 * writes them (`io: 'output'`), with the resources as named components.
 * A build-time tool: it imports every handler, so no function may import it.
 */

type JsonSchema = z.core.JSONSchema.BaseSchema;
type Json = Record<string, unknown>;

/** A row of the table with the schemas its handler declared (`handler.schemas`). */
export interface RouteOperation {
  row: RouteRow;
  schemas: Schemas;
}

/**
 * The resources documented once, as named components, and referenced (`$ref`) wherever
 * an answer holds them. Everything else (the envelopes, the auth answers) is inline.
 */
const COMPONENTS = {
  Ticket: TicketResource,
  TicketHistoryEntry: TicketHistoryEntryResource,
  TicketWaiver: TicketWaiverResource,
  ShippingMethod: ShippingMethodResource,
  AdministratorProfile: AdministratorProfileResource,
  CheckInStats: CheckInStatsResource,
} as const satisfies Record<string, z.ZodMiniType>;

// The converter extracts a schema registered with an `id` into `$defs` and refers to it there.
for (const [id, schema] of Object.entries(COMPONENTS)) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });

const COMPONENT_PATH = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${COMPONENT_PATH}${name}` });

/** The component schemas, filled in as the operations' schemas are converted. */
type Components = Record<string, JsonSchema>;

/**
 * Zod schema → JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), without the `$schema`
 * key. The named resources it holds move to `components` (one body per name: a name
 * converted to two different bodies, e.g. once as input, is an error).
 */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', components: Components): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    // A multipart file field is the only schema with no JSON equivalent: document it as binary.
    unrepresentable: ({ zodSchema }) => (zodSchema === FilePart ? { type: 'string', format: 'binary' } : 'throw'),
  });
  const relinked = JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT_PATH}`);
  const { $schema: _dialect, $defs, ...rest } = JSON.parse(relinked) as JsonSchema;
  for (const [name, body] of Object.entries($defs ?? {})) {
    const known = components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(body)) throw new Error(`Two different schemas for the component ${name}.`);
    components[name] = body as JsonSchema;
  }
  return rest;
}

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
  errors: z.optional(z.array(z.strictObject({ path: z.string(), message: z.string() })).check(z.describe('At most 20 (MAX_LISTED_ERRORS); each path and message at most 200 characters.'))),
  errorsNotListed: z.optional(z.int().check(z.describe('How many further field problems `errors` leaves out.'))),
});

function accessText(row: RouteRow): string {
  const { auth } = row;
  if (auth.kind === 'public') return 'Public: no token needed.';
  if (auth.kind === 'customer') return 'A customer token; the caller sees only their own data.';
  return auth.permission ? `An administrator token with the \`${auth.permission}\` permission.` : 'Any administrator token.';
}

/** `shipping-method/bulk-create` → `shippingMethodBulkCreate`. */
const operationId = (handler: string) => handler.replace(/[/-](\w)/g, (_match, letter: string) => letter.toUpperCase());

/** One parameter per property of an object schema. */
function parameters(where: 'path' | 'query', schema: z.ZodMiniType | undefined, components: Components): Json[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input', components);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    // Path parameters are always required in OpenAPI.
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

function requestBody(body: z.ZodMiniType, multipart: boolean, components: Components): Json {
  const mediaType = multipart ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [mediaType]: { schema: jsonSchema(body, 'input', components) } } };
}

const SUCCESS: Record<number, string> = { 200: 'Success.', 201: 'Created.', 204: 'Done; no body.', 302: 'A redirect (`Location`).' };

/** The success answer the handler declared (`response`, `status`), and the errors its row and schemas allow. */
function responses(row: RouteRow, schemas: Schemas, components: Components): Json {
  const { response, status = 200 } = schemas;
  if (!SUCCESS[status]) throw new Error(`${routeKey(row)}: success status ${status} is not one the API answers.`);
  const bodiless = status === 204 || status === 302;
  if (bodiless === (response !== undefined)) {
    throw new Error(`${routeKey(row)}: declare a \`response\` schema, or a status of 204 or 302 (and no response), in its route().`);
  }
  const deprecationHeaders = row.successor
    ? {
        headers: {
          Deprecation: { schema: { type: 'string', const: 'true' } },
          Link: { description: `\`<${API_PREFIX}${row.successor}>; rel="successor-version"\``, schema: { type: 'string' } },
        },
      }
    : {};
  const success = {
    description: SUCCESS[status],
    ...deprecationHeaders,
    ...(response ? { content: { 'application/json': { schema: jsonSchema(response, 'output', components) } } } : {}),
  };
  // Write routes with `result=none|id|object` answer 204 for `none`.
  const takesResult = schemas.query !== undefined && 'result' in (jsonSchema(schemas.query, 'input', components).properties ?? {});
  return {
    [status]: success,
    ...(takesResult && status !== 204 ? { 204: { description: 'With `result=none`: done; no body.' } } : {}),
    ...Object.fromEntries(errorStatuses(row, schemas).map((code) => [code, { $ref: `#/components/responses/Problem${code}` }])),
  };
}

function operation({ row, schemas }: RouteOperation, components: Components): Json {
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
    parameters: [...parameters('path', schemas.path, components), ...parameters('query', schemas.query, components)],
    ...(schemas.body ? { requestBody: requestBody(schemas.body, schemas.multipart !== undefined, components) } : {}),
    responses: responses(row, schemas, components),
  };
}

export function buildOpenApi(operations: readonly RouteOperation[]): Json {
  const components: Components = {};
  // Every named resource, used or not; each conversion leaves only a `$ref` at its root.
  for (const schema of Object.values(COMPONENTS)) jsonSchema(schema, 'output', components);
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    paths[op.row.path] ??= {};
    paths[op.row.path]![op.row.method.toLowerCase()] = operation(op, components);
  }
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
      schemas: { ProblemDetails: jsonSchema(ProblemDetails, 'output', components), ...components },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([code, description]) => [
          `Problem${code}`,
          { description, content: { 'application/problem+json': { schema: ref('ProblemDetails') } } },
        ]),
      ),
    },
  };
}
