import * as z from '#shared/schema';
import { API_PREFIX } from '#shared/api-prefix';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { TAGS } from './catalogue.ts';
import { COMPONENTS, type Components, type Json, jsonSchema, ref } from './json-schema.ts';
import { operation, type RouteOperation } from './operation.ts';
import { HEADERS, PROBLEM_RESPONSES } from './problems.ts';
import { webhooksSection } from './webhooks.ts';

/**
 * The OpenAPI 3.1 document, built from the route table (method, path, access, successor)
 * and each handler's own zod schemas (path, query, body, response, status), so it cannot
 * drift from the code. Request schemas are converted as the client sends them
 * (`io: 'input'`: strings on the wire, defaulted fields optional); answers as the API
 * writes them (`io: 'output'`), with the resources as named components.
 * A build-time tool: it imports every handler, so no function may import it.
 * The conversion: json-schema.ts; one route's operation: operation.ts.
 */

export type { RouteOperation } from './operation.ts';

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
