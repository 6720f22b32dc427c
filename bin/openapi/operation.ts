import * as z from '#shared/schema';
import { isStageWide } from '#shared/auth/permissions';
import { NewShippingMethod, ShippingMethodPatch } from '#shared/selling/domain/shipping-method';
import { positiveId } from '#shared/domain/ids';
import type { DocumentedSchemas } from '#shared/http/handler-module';
import { routeKey, routes, type RouteRow } from '#shared/routes';
import { CATALOGUE, PARAMETERS, type RouteDoc } from './catalogue.ts';
import { type Components, type Json, type JsonSchema, jsonSchema, ref } from './json-schema.ts';
import { PROBLEM_RESPONSES, problemResponses } from './problems.ts';

/**
 * One route's operation in the OpenAPI document (document.ts): its access, parameters,
 * body and answers, from the route's row, its handler's schemas and the catalogue.
 */

/** A row of the table with the schemas its handler declared (`handler.schemas`). */
export interface RouteOperation {
  row: RouteRow;
  schemas: DocumentedSchemas;
}

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
  if (!auth.permission) return 'Any administrator token.';
  const holds = `An administrator token with the \`${auth.permission}\` permission`;
  return isStageWide(auth.permission)
    ? `${holds}, unlimited: the permission is stage-wide (what it changes is offered at every event), so an administrator limited to some events is refused (403).`
    : `${holds}.`;
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
  if (bodiless === (response !== undefined || schemas.binary !== undefined)) {
    throw new Error(
      `${routeKey(row)}: export an \`answer\` beside its handler, or declare a status of 204 or 302 (and no answer) in its route().`,
    );
  }
  const headers: Json = {
    ...(row.successor ? { Deprecation: ref('Deprecation', 'headers'), Link: ref('Link', 'headers') } : {}),
    ...(row.idempotent ? { 'Idempotent-Replayed': ref('IdempotentReplayed', 'headers') } : {}),
    ...(schemas.binary
      ? {
          'Content-Disposition': {
            description: 'The file name a browser saves it under (`inline`: shown, not downloaded).',
            schema: { type: 'string' },
          },
        }
      : {}),
    ...(status === 302
      ? { Location: { description: 'Where the browser goes next.', required: true, schema: { type: 'string' } } }
      : {}),
  };
  const withHeaders = Object.keys(headers).length ? { headers } : {};
  const success = {
    description: SUCCESS[status],
    ...withHeaders,
    ...(response ? { content: { 'application/json': { schema: jsonSchema(response, 'output', components) } } } : {}),
    ...(schemas.binary
      ? { content: { [schemas.binary]: { schema: { type: 'string', contentMediaType: schemas.binary } } } }
      : {}),
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

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 h answers the first answer (`Idempotent-Replayed: true`); with another request, 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
};

export function operation({ row, schemas }: RouteOperation, components: Components): Json {
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
