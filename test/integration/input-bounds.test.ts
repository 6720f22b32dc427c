import { beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#shared/api-prefix';
import { routeKey, routes } from '#shared/routes';
import { buildOpenApi } from '../../bin/openapi/document.ts';
import { loadRouteOperations } from '../../bin/openapi/load-routes.ts';
import { call } from '../support/api.ts';
import { schemasOf } from '../support/handlers.ts';
import { form } from '../support/multipart.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Every bound the OpenAPI document states on a request input (a string's maxLength, a number's
 * minimum and maximum, an array's maxItems) is the one the route enforces: through the real
 * stack, the value at the bound is not refused for that field, and one past it is a 400 naming
 * it. The document's bounds come from the same zod schemas as the validation; this proves
 * they are not merely documented.
 */
type Schema = {
  type?: string | string[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  maximum?: number;
  minimum?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** One bounded input: where it is, the value at its bound and the values one past it. */
interface Bound {
  part: 'path' | 'query' | 'headers' | 'body';
  /** Dotted, as the problem's `errors[].path` names it after the part (`data.partyMember`, `ids`). */
  field: string;
  bound: string;
  at: unknown;
  past: unknown[];
}

const typeOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** An address of exactly `length` characters: a 64-character local part, then labels of at most 63. */
function addressOf(length: number): string | undefined {
  const labels: string[] = [];
  let left = length - '@'.length - 64 - '.test'.length;
  while (left > 0) {
    const label = Math.min(63, left - (labels.length ? 1 : 0));
    if (label < 1) return undefined;
    labels.push('b'.repeat(label));
    left -= label + (labels.length > 1 ? 1 : 0);
  }
  const address = `${'a'.repeat(64)}@${[...labels, 'test'].join('.')}`;
  return address.length === length ? address : undefined;
}

/** A string of `length` the schema's pattern (if any) accepts, or undefined (a format other than email). */
function textOf(schema: Schema, length: number): string | undefined {
  if (schema.format === 'email') return addressOf(length);
  if (schema.format) return undefined;
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  return ['1', 'a', 'A'].map((unit) => unit.repeat(length)).find((text) => !pattern || pattern.test(text));
}

function leafBounds(schema: Schema, part: Bound['part'], field: string, asText: boolean): Bound[] {
  const found: Bound[] = [];
  const type = typeOf(schema);
  if (type === 'string' && schema.maxLength !== undefined && !schema.enum) {
    const at = textOf(schema, schema.maxLength);
    // One past: the same characters, one more (a pattern of digits still matches; only the length is wrong).
    const past = schema.format === 'email' ? addressOf(schema.maxLength + 1) : at && `${at}${at.at(-1)}`;
    if (at !== undefined && past !== undefined)
      found.push({ part, field, bound: `maxLength ${schema.maxLength}`, at, past: [past] });
  }
  if (type === 'integer' || type === 'number') {
    const value = (n: number) => (asText ? String(n) : n);
    for (const [bound, edge, beyond] of [
      ['maximum', schema.maximum, 1],
      ['minimum', schema.minimum, -1],
    ] as const)
      if (edge !== undefined && Number.isSafeInteger(edge + beyond))
        found.push({
          part,
          field,
          bound: `${bound} ${edge}`,
          at: value(edge),
          past: [value(edge + beyond)],
        });
  }
  return found;
}

/** The bounds of a body schema, walked through objects and arrays (a union's branches are left out: zod names the union, not the leaf). */
function bodyBounds(schema: Schema, field: string): Bound[] {
  const type = typeOf(schema);
  if (type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([name, property]) =>
      bodyBounds(property, field ? `${field}.${name}` : name),
    );
  if (type === 'array') {
    const inner = schema.items ? bodyBounds(schema.items, `${field}.0`) : [];
    if (schema.maxItems === undefined) return inner;
    const item =
      schema.items && typeOf(schema.items) === 'integer'
        ? 1
        : schema.items && typeOf(schema.items) === 'string'
          ? 'x'
          : {};
    return [
      ...inner,
      {
        part: 'body',
        field,
        bound: `maxItems ${schema.maxItems}`,
        at: Array.from({ length: schema.maxItems }, () => item),
        past: [Array.from({ length: schema.maxItems + 1 }, () => item)],
      },
    ];
  }
  return leafBounds(schema, 'body', field, false);
}

/** A body holding only `value` at the dotted `field` (`data.0.id` builds arrays where a segment is a number). */
function bodyWith(field: string, value: unknown): unknown {
  const [head, ...rest] = field.split('.');
  const inner = rest.length ? bodyWith(rest.join('.'), value) : value;
  return /^\d+$/.test(head!) ? [inner] : { [head!]: inner };
}

interface Case {
  route: string;
  method: string;
  path: string;
  /** The body the route takes: one is sent (`{}`, or a one-field form, when another part is under test), so its media type is right. */
  takes: 'json' | 'form' | 'nothing';
  /** A bulk body (`{ count, data }`): its count is made to agree with `data`, so the items are validated. */
  bulk: boolean;
  bound: Bound;
}

const cases: Case[] = [];
let admin: string;
let customer: string;

beforeAll(async () => {
  const document = buildOpenApi(await loadRouteOperations()) as unknown as {
    paths: Record<string, Record<string, Operation>>;
  };
  for (const row of routes) {
    const operation = document.paths[row.path]?.[row.method.toLowerCase()];
    if (!operation) throw new Error(`${routeKey(row)} is not in the document`);
    const bounds = [
      ...(operation.parameters ?? []).flatMap((parameter) =>
        parameter.in === 'cookie'
          ? []
          : leafBounds(
              parameter.schema,
              parameter.in === 'header' ? 'headers' : parameter.in,
              parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name,
              true,
            ),
      ),
      // A raw body (route() `raw`: Stripe's webhook) is refused on its signature before any field is read: its
      // schema documents what Stripe sends (test/integration/stripe-webhook.test.ts covers the refusals).
      ...((await schemasOf(row)).raw
        ? []
        : bodyBounds(operation.requestBody?.content['application/json']?.schema ?? {}, '')),
    ];
    const content = operation.requestBody?.content ?? {};
    const takes = content['application/json'] ? 'json' : content['multipart/form-data'] ? 'form' : 'nothing';
    const bulk = content['application/json']?.schema.properties?.count !== undefined;
    for (const bound of bounds)
      cases.push({ route: routeKey(row), method: row.method, path: row.path, takes, bulk, bound });
  }
  admin = await adminToken();
  customer = await customerToken(7_400_001);
}, 60_000);

function bodyOf(bound: Bound, value: unknown, takes: Case['takes'], bulk: boolean) {
  if (bound.part === 'body') {
    const body = bodyWith(bound.field, value) as { data?: unknown };
    return { body: bulk && Array.isArray(body.data) ? { ...body, count: body.data.length } : body };
  }
  if (takes === 'json') return { body: {} };
  if (takes === 'nothing') return {};
  const { body, contentType } = form([{ name: 'note', value: 'x' }]);
  return { body, headers: { 'content-type': contentType } };
}

/** The request with every path parameter `1` but the one under test, and the field set to `value`. */
async function send({ route, method, path, takes, bulk, bound }: Case, value: unknown) {
  const row = routes.find((candidate) => routeKey(candidate) === route)!;
  const pathname = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    bound.part === 'path' && bound.field === name ? encodeURIComponent(String(value)) : '1',
  );
  const query = bound.part === 'query' ? `?${new URLSearchParams({ [bound.field]: String(value) })}` : '';
  const token = row.auth.kind === 'admin' ? admin : row.auth.kind === 'customer' ? customer : undefined;
  const body: { body?: unknown; headers?: Record<string, string> } = bodyOf(bound, value, takes, bulk);
  const answer = await call(method, `${API_PREFIX}${pathname}${query}`, {
    ...(token ? { token } : {}),
    ...body,
    headers: { ...body.headers, ...(bound.part === 'headers' ? { [bound.field]: String(value) } : {}) },
  });
  const problems: Problem[] = [...((answer.body?.errors ?? []) as Problem[]), ...bulkProblems(answer.body)];
  return {
    status: answer.status,
    about: problems.filter((problem) => problem.path === `${bound.part}.${bound.field}`),
  };
}

interface Problem {
  path: string;
  message: string;
}

/** A bulk answer's first item refused (`{ id, error: "name: Too big: …; charge: …" }`), as field problems of `body.data.0`. */
function bulkProblems(body: { data?: { error?: unknown }[] } | undefined): Problem[] {
  const error = Array.isArray(body?.data) ? body.data[0]?.error : undefined;
  if (typeof error !== 'string') return [];
  return error.split('; ').map((line) => {
    const [path, ...message] = line.split(': ');
    return { path: `body.data.0.${path}`, message: message.join(': ') };
  });
}

/** zod's messages for a value past a bound (`Too big: expected string to have <=200 characters`). */
const PAST_A_BOUND = /^Too (big|small)/;

describe('every bound the document states on a request input', () => {
  it('is enforced: at the bound the field is not refused as too big or small, one past it is refused naming the field', async () => {
    console.log(
      `input bounds: ${cases.length} bounded inputs over ${new Set(cases.map(({ route }) => route)).size} routes`,
    );
    expect(cases.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    const headersReached = new Set<string>();
    for (const testCase of cases) {
      const { bound } = testCase;
      const where = `${testCase.route} ${bound.part}.${bound.field} (${bound.bound})`;
      const at = await send(testCase, bound.at);
      if (at.status >= 500 || at.about.some((problem) => PAST_A_BOUND.test(problem.message)))
        wrong.push(`${where}: at the bound ${at.status}, ${at.about.map((problem) => problem.message).join('; ')}`);
      for (const past of bound.past) {
        const answer = await send(testCase, past);
        // The callback answers every input with a redirect to the front end (a value over its bound counts as absent).
        if (testCase.route === 'GET /auth/callback') {
          if (answer.status !== 302) wrong.push(`${where}: one past ${answer.status}, not a redirect`);
          continue;
        }
        // Headers are read after the body: where `{}` is not a valid body, the header is not reached here.
        if (bound.part === 'headers' && answer.status === 400 && !answer.about.length) continue;
        if (bound.part === 'headers') headersReached.add(bound.field);
        if (answer.status >= 500 || !answer.about.length)
          wrong.push(`${where}: one past ${answer.status}, not naming it`);
      }
    }
    // Each bounded header is proven on some route whose body `{}` passes.
    const headers = new Set(cases.filter(({ bound }) => bound.part === 'headers').map(({ bound }) => bound.field));
    expect([...headersReached].sort()).toEqual([...headers].sort());
    expect(wrong).toEqual([]);
  }, 240_000);
});
