import * as z from '#shared/schema';
import { ShippingMethodResource } from '#shared/domain/shipping-method-resource';
import { TicketHistoryEntryResource, TicketResource } from '#shared/domain/ticket-resource';
import { TicketWaiverResource } from '#shared/domain/waiver-resource';
import { AdministratorProfileResource } from '#shared/http/contract/auth';
import { CheckInStatsResource } from '#shared/http/contract/tickets';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { FilePart } from '#shared/http/multipart-form';
import type { DocumentedSchemas } from '#shared/http/handler-module';
import { NewShippingMethod, ShippingMethodPatch } from '#shared/domain/shipping-method';
import { positiveId } from '#shared/domain/ids';
import { CATALOGUE, PARAMETERS, TAGS, type RouteDoc } from './catalogue.ts';
import { HEADERS, PROBLEM_RESPONSES, problemResponses } from './problems.ts';
import { routeKey, routes, type RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { DeliveryResource, WebhookResource } from '#shared/domain/webhooks';
import { webhooksSection } from './webhooks.ts';

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
  schemas: DocumentedSchemas;
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
  Webhook: WebhookResource,
  WebhookDelivery: DeliveryResource,
} as const satisfies Record<string, z.ZodMiniType>;

// The converter extracts a schema registered with an `id` into `$defs` and refers to it there.
for (const [id, schema] of Object.entries(COMPONENTS))
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });

const COMPONENT_PATH = '#/components/schemas/';
const ref = (name: string, kind: 'schemas' | 'headers' = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });

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
  const relinked = JSON.stringify(withIntegerFormats(converted)).replaceAll('"#/$defs/', `"${COMPONENT_PATH}`);
  const { $schema: _dialect, $defs, ...rest } = JSON.parse(relinked) as JsonSchema;
  for (const [name, body] of Object.entries($defs ?? {})) {
    const known = components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(body))
      throw new Error(`Two different schemas for the component ${name}.`);
    components[name] = body as JsonSchema;
  }
  return rest;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * Every integer's `format`, read from the bounds its zod schema states (`int32` when they
 * fit in 32 bits, else `int64`; zod's `z.int()` is bounded by the safe integers), so a
 * client sizes its fields from the same bounds the validation enforces.
 */
function withIntegerFormats<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withIntegerFormats) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withIntegerFormats(value)]));
  const types = [node.type].flat();
  if (types.includes('integer') && node.format === undefined) {
    const low = node.minimum ?? node.exclusiveMinimum;
    const high = node.maximum ?? node.exclusiveMaximum;
    const fits = typeof low === 'number' && typeof high === 'number' && low >= INT32.min && high <= INT32.max;
    node.format = fits ? 'int32' : 'int64';
  }
  return node as T;
}

/** `{ type, title, status, detail, instance, errors? }`, as shared/http/problem-details.ts writes it; extension members allowed. */
const ProblemDetails = z.looseObject({
  type: z.string().check(z.describe('`/problems/<slug>`')),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  instance: z.string().check(z.describe('The request path.')),
  errors: z.optional(
    z
      .array(z.strictObject({ path: z.string(), message: z.string() }))
      .check(z.describe('At most 20 (MAX_LISTED_ERRORS); each path and message at most 200 characters.')),
  ),
  errorsNotListed: z.optional(z.int().check(z.describe('How many further field problems `errors` leaves out.'))),
  reason: z.optional(
    z.string().check(z.describe('A stable code to branch on (409, 422): the values are listed per operation.')),
  ),
  error: z.optional(
    z
      .string()
      .check(
        z.describe('A stable code on some 403s: `csrf_rejected`, `origin_rejected`, `vendor_user_restricted`, ...'),
      ),
  ),
  requestId: z.optional(z.string().check(z.describe('On a 500: the id to quote when reporting it.'))),
});

const AUDIENCE_SECURITY = {
  public: [],
  admin: [{ adminBearer: [] }, { adminCookie: [] }],
  customer: [{ customerBearer: [] }, { customerCookie: [] }],
} as const;

function accessText(row: RouteRow): string {
  const { auth } = row;
  if (auth.kind === 'public') return 'Public: no token needed.';
  if (auth.kind === 'customer') return 'A customer token; the caller sees only their own data.';
  if (auth.kind === 'admin' && auth.signOut)
    return 'An administrator token or cookie when there is one: a missing, expired or revoked one is answered as signed out (the cookie cleared); only a foreign Origin is refused.';
  return auth.permission
    ? `An administrator token with the \`${auth.permission}\` permission.`
    : 'Any administrator token.';
}

/** `shipping-method/bulk-create` → `shippingMethodBulkCreate`. */
const operationId = (handler: string) => handler.replace(/[/-](\w)/g, (_match, letter: string) => letter.toUpperCase());

/** The catalogue entry of a row; the unit test guarantees there is one. */
function docOf(row: RouteRow): RouteDoc {
  const doc = (CATALOGUE as Record<string, RouteDoc>)[routeKey(row)];
  if (!doc) throw new Error(`${routeKey(row)} has no entry in bin/openapi/catalogue.ts.`);
  return doc;
}

/** One parameter per property of an object schema, described from the catalogue. */
function parameters(
  where: 'path' | 'query',
  schema: z.ZodMiniType | undefined,
  doc: RouteDoc,
  components: Components,
): Json[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input', components);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description: own, ...rest } = property as JsonSchema;
    return {
      name,
      in: where,
      description: doc.parameters?.[name] ?? PARAMETERS[name] ?? own,
      // Path parameters are always required in OpenAPI.
      required: where === 'path' || required.has(name),
      // A query value the handler takes as anything (the callback's) is still a string on the wire.
      schema: Object.keys(rest).length ? rest : { type: 'string' },
    };
  });
}

/** Bulk bodies take their items unchecked (each is validated alone, so one bad item fails alone): documented as the single-item body. */
const BULK_ITEMS: Partial<Record<string, z.ZodMiniType>> = {
  'POST /shipping-method/bulk-create': NewShippingMethod,
  'POST /shipping-method/bulk-update': z.strictObject({ id: positiveId, data: ShippingMethodPatch }),
};

function requestBody(row: RouteRow, schemas: DocumentedSchemas, doc: RouteDoc, components: Components): Json {
  const mediaType = schemas.multipart ? 'multipart/form-data' : 'application/json';
  const schema = jsonSchema(schemas.body!, 'input', components);
  // A file part is bounded by the form's limit (413 above it): stated on each binary field.
  for (const property of Object.values(schema.properties ?? {}) as JsonSchema[])
    if (schemas.multipart && property.format === 'binary') property.maxLength = schemas.multipart.limits.maxFileBytes;
  const items = BULK_ITEMS[routeKey(row)];
  if (items) (schema.properties!.data as JsonSchema).items = jsonSchema(items, 'input', components);
  return {
    required: true,
    content: { [mediaType]: { schema, ...(doc.example !== undefined ? { example: doc.example } : {}) } },
  };
}

const SUCCESS: Record<number, string> = {
  200: 'Success.',
  201: 'Created.',
  202: 'Accepted: done later (the answer says what was queued).',
  204: 'Done; no body.',
  302: 'A redirect (`Location`).',
};

/** The success answer the handler module declared (its `answer`, the route's `status`), and every problem answer of the route. */
function responses(row: RouteRow, schemas: DocumentedSchemas, doc: RouteDoc, components: Components): Json {
  const { response, status = 200 } = schemas;
  if (!SUCCESS[status]) throw new Error(`${routeKey(row)}: success status ${status} is not one the API answers.`);
  const bodiless = status === 204 || status === 302;
  if (bodiless === (response !== undefined)) {
    throw new Error(
      `${routeKey(row)}: export an \`answer\` beside its handler, or declare a status of 204 or 302 (and no answer) in its route().`,
    );
  }
  const headers: Json = {
    ...(row.successor ? { Deprecation: ref('Deprecation', 'headers'), Link: ref('Link', 'headers') } : {}),
    ...(row.idempotent ? { 'Idempotent-Replayed': ref('IdempotentReplayed', 'headers') } : {}),
    ...(status === 302
      ? { Location: { description: 'Where the browser goes next.', required: true, schema: { type: 'string' } } }
      : {}),
  };
  const withHeaders = Object.keys(headers).length ? { headers } : {};
  const success = {
    description: SUCCESS[status],
    ...withHeaders,
    ...(response ? { content: { 'application/json': { schema: jsonSchema(response, 'output', components) } } } : {}),
  };
  // Write routes with `result=none|id|object` answer 204 for `none`.
  const takesResult =
    schemas.query !== undefined && 'result' in (jsonSchema(schemas.query, 'input', components).properties ?? {});
  const answers: Record<string, Json> = {
    [status]: success,
    ...(takesResult && status !== 204
      ? { 204: { description: 'With `result=none`: done; no body.', ...withHeaders } }
      : {}),
    ...problemResponses(row, doc, schemas.body !== undefined),
  };
  return row.throttled ? withRateLimitHeaders(answers) : answers;
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': ref('RateLimitPolicy', 'headers'),
  RateLimit: ref('RateLimit', 'headers'),
};

/** A throttled row's 2xx and 4xx answers carry its budgets: shared problem answers become copies that say so. */
function withRateLimitHeaders(answers: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => {
      if (!/^[24]/.test(status)) return [status, answer];
      const shared = typeof answer.$ref === 'string' ? answer.$ref.split('/').pop()! : undefined;
      const body = shared ? (PROBLEM_RESPONSES as Record<string, Json>)[shared]! : answer;
      return [status, { ...body, headers: { ...(body.headers as Json | undefined), ...RATE_LIMIT_HEADERS } }];
    }),
  );
}

/** Every answer, errors included, carries CORS for the route's audience (shared/http/response-headers.ts). */
function withCors(response: Json): Json {
  if (response.$ref) return response;
  return {
    ...response,
    headers: {
      ...(response.headers as Json | undefined),
      'Access-Control-Allow-Origin': ref('AccessControlAllowOrigin', 'headers'),
    },
  };
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 h answers the first answer (`Idempotent-Replayed: true`); with another request, 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
};

function operation({ row, schemas }: RouteOperation, components: Components): Json {
  const doc = docOf(row);
  const successor =
    row.successor && routes.find((other) => other.path === row.successor && other.method === row.method);
  const deprecation = row.successor
    ? `Deprecated: use \`${row.method} ${row.successor}\`${successor ? ` (\`${operationId(successor.handler)}\`)` : ''} instead. `
    : '';
  return {
    operationId: operationId(row.handler),
    summary: doc.summary,
    tags: [row.handler.split('/')[0]],
    description: [deprecation + accessText(row), doc.description].filter(Boolean).join('\n\n'),
    ...(row.successor ? { deprecated: true } : {}),
    // A logout also answers without a valid token: the empty requirement says a token is optional.
    security:
      row.auth.kind === 'admin' && row.auth.signOut
        ? [...AUDIENCE_SECURITY.admin, {}]
        : AUDIENCE_SECURITY[row.auth.kind],
    ...(row.auth.kind === 'admin' && row.auth.permission ? { 'x-permission': row.auth.permission } : {}),
    // Counts the caller against rate-limit budgets: its answers carry RateLimit-Policy and RateLimit.
    ...(row.throttled ? { 'x-throttled': true } : {}),
    parameters: [
      ...parameters('path', schemas.path, doc, components),
      ...parameters('query', schemas.query, doc, components),
      ...(row.idempotent ? [IDEMPOTENCY_KEY] : []),
    ],
    ...(schemas.body ? { requestBody: requestBody(row, schemas, doc, components) } : {}),
    responses: responses(row, schemas, doc, components),
  };
}

/** What shared/auth/tokens.ts checks of every token it accepts. */
const JWT_TEXT =
  "A JWS following the JWT best current practices of RFC8725: the algorithm pinned (no `none`, no algorithm from the token), the key chosen by `kid` from the service's own keys, and `exp`, `iss` and `aud` required; administrator and customer tokens have different audiences.";

const COOKIE_TEXT =
  'The `__Host-ticketing-auth` cookie set at sign-in. Unsafe methods also need an allowed `Origin` of the audience and an `X-Requested-With` header (CSRF).';

/** Where a document is served: `npm start` and the tests (`local`), or a deployed stage (infra/stages.ts). */
export type Environment = 'local' | 'dev' | 'staging' | 'prod';

const ENVIRONMENT_TEXT: Record<Environment, string> = {
  local: 'Local development and tests (`npm start`, 127.0.0.1)',
  dev: 'The dev stage: a deployed test environment',
  staging: 'The staging stage: the pre-production environment',
  prod: 'Production',
};

export function buildOpenApi(operations: readonly RouteOperation[], environment: Environment = 'local'): Json {
  const components: Components = {};
  // Every named resource, used or not; each conversion leaves only a `$ref` at its root.
  for (const schema of Object.values(COMPONENTS)) jsonSchema(schema, 'output', components);
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    paths[op.row.path] ??= {};
    const built = operation(op, components);
    built.responses = Object.fromEntries(
      Object.entries(built.responses as Record<string, Json>).map(([status, response]) => [status, withCors(response)]),
    );
    paths[op.row.path]![op.row.method.toLowerCase()] = built;
  }
  const tagNames = [...new Set(operations.map((op) => op.row.handler.split('/')[0]!))];
  // Before the components are written out: the messages refer to the Ticket component.
  const webhooks = webhooksSection((schema) => jsonSchema(schema, 'output', components));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ticketing and checkout API',
      version: '2',
      summary: 'Tickets, check-in, shipping methods and the customer portal.',
      description:
        "Generated from shared/routes.ts, the handlers' zod schemas and bin/openapi/catalogue.ts (`npm run openapi`). Errors are RFC 9457 problem details (`application/problem+json`).",
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: API_PREFIX,
        description: `${ENVIRONMENT_TEXT[environment]}: the API behind each front-end origin (same host as the SPA or portal).`,
        // Public: the admin SPA, the customer portal and integrations call it from the internet.
        'x-internal': false,
      },
    ],
    tags: tagNames.map((name) => ({ name, description: TAGS[name] ?? '' })),
    paths,
    webhooks,
    components: {
      securitySchemes: {
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `An administrator token (from the callback, \`POST /auth/legacy/login\` or \`POST /auth/refresh\`). ${JWT_TEXT}`,
        },
        adminCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: AUTH_COOKIE,
          description: `${COOKIE_TEXT} Holding an administrator token.`,
        },
        customerBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `A customer token (from \`PUT /my-account\`). ${JWT_TEXT}`,
        },
        customerCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: AUTH_COOKIE,
          description: `${COOKIE_TEXT} Holding a customer token.`,
        },
      },
      schemas: { ProblemDetails: jsonSchema(ProblemDetails, 'output', components), ...components },
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.entries(PROBLEM_RESPONSES).map(([name, response]) => [name, withCors(response)]),
      ),
    },
  };
}
