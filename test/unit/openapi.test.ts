import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '#shared/routes';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { buildOpenApi, type RouteOperation } from '../../bin/openapi/document.ts';
import { loadRouteOperations } from '../../bin/openapi/load-routes.ts';
import { CATALOGUE, PARAMETERS } from '../../bin/openapi/catalogue.ts';
import {
  MAX_LISTED_ERRORS as DOCUMENTED_MAX_ERRORS,
  PROBLEM_CONTENT_TYPE as DOCUMENTED_PROBLEM_TYPE,
} from '../../bin/openapi/problems.ts';

/**
 * The generated document, checked against the table it comes from. A unit test: building
 * it makes no calls, so it needs none of the integration project's services; loading the
 * handlers needs only the dummy cold-start environment, which `loadRouteOperations` fills in.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  required: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags: string[];
  deprecated?: boolean;
  description: string;
  security: Record<string, string[]>[];
  'x-permission'?: string;
  parameters: Parameter[];
  requestBody?: {
    content: Record<
      string,
      {
        example?: unknown;
        schema: { properties: Record<string, any>; required?: string[]; additionalProperties?: boolean };
      }
    >;
  };
  responses: Record<string, any>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  info: { license?: { name: string }; summary?: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties: Record<string, { enum?: unknown[]; description?: string }> }>;
    securitySchemes: Record<string, unknown>;
    responses: Record<string, any>;
  };
}

let document: Document;
let operations: RouteOperation[];
const operationOf = (method: string, path: string) => document.paths[path]?.[method.toLowerCase()];
const successOf = (method: string, path: string, status = '200') =>
  (operationOf(method, path)!.responses[status] as { content?: Record<string, { schema: Record<string, any> }> })
    .content?.['application/json']?.schema;

beforeAll(async () => {
  operations = await loadRouteOperations();
  document = buildOpenApi(operations) as unknown as Document;
}, 60_000);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v2' })]);
    const validator = new Validator();
    // As written to openapi.json (and a copy: the validator resolves $refs in place).
    expect(await validator.validate(JSON.parse(JSON.stringify(document)))).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('has one operation per row of the table, and no other', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map(routeKey).sort());
    const ids = routes.map((row) => operationOf(row.method, row.path)!.operationId);
    expect(new Set(ids).size).toBe(routes.length);
    expect(operationOf('POST', '/shipping-method/bulk-create')!.operationId).toBe('shippingMethodBulkCreate');
  });

  it.each(routes.map((row) => [routeKey(row), row] as const))('%s: path parameters match the path', (_key, row) => {
    const inPath = [...row.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    const documented = operationOf(row.method, row.path)!.parameters.filter((parameter) => parameter.in === 'path');
    expect(
      documented.every((parameter) => parameter.description),
      'described',
    ).toBe(true);
    expect(documented.map((parameter) => parameter.name)).toEqual(inPath);
    expect(documented.every((parameter) => parameter.required)).toBe(true);
  });

  it('documents query parameters, required only when neither optional nor defaulted', () => {
    const list = operationOf('GET', '/shipping-method')!.parameters;
    expect(list.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['name', false],
      ['_limit', false],
      ['_offset', false],
    ]);
    const stats = operationOf('GET', '/tickets/check-in-stats')!.parameters;
    expect(stats).toEqual([expect.objectContaining({ name: 'events', in: 'query', required: true })]);
  });

  it("gives public rows no security, the logouts an optional token, and the others their audience's bearer or cookie, with their permission", () => {
    for (const row of routes) {
      const operation = operationOf(row.method, row.path)!;
      if (row.auth.kind === 'public') {
        expect(operation.security, routeKey(row)).toEqual([]);
      } else if (row.auth.kind === 'admin' && row.auth.signOut) {
        // The logouts: a token when there is one, and none is answered too (signed out, never 401).
        expect(operation.security, routeKey(row)).toEqual([{ adminBearer: [] }, { adminCookie: [] }, {}]);
        expect(operation.responses, routeKey(row)).not.toHaveProperty('401');
      } else {
        const audience = row.auth.kind;
        expect(operation.security, routeKey(row)).toEqual([
          { [`${audience}Bearer`]: [] },
          { [`${audience}Cookie`]: [] },
        ]);
        expect(operation.responses).toHaveProperty('401');
      }
      if (row.auth.kind === 'admin' && row.auth.permission) {
        expect(operation['x-permission']).toBe(row.auth.permission);
        expect(operation.description).toContain(row.auth.permission);
      }
    }
  });

  it('marks the rows with a successor deprecated and names the successor', () => {
    for (const row of routes) {
      const operation = operationOf(row.method, row.path)!;
      if (row.successor) {
        expect(operation.deprecated, routeKey(row)).toBe(true);
        expect(operation.description).toContain(`${row.method} ${row.successor}`);
      } else {
        expect(operation.deprecated, routeKey(row)).toBeUndefined();
      }
    }
    expect(operationOf('GET', '/auth/me2')!.deprecated).toBe(true);
  });

  it('takes the shipping-method create body from its schema: name required, nothing unknown', () => {
    const body = operationOf('POST', '/shipping-method')!.requestBody!.content['application/json']!.schema;
    expect(body.required).toEqual(['name']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['name', 'charge', 'chargeType']));
  });

  it('documents the profile photo as a multipart binary file', () => {
    const body = operationOf('POST', '/tickets/{id}/profile-photo')!.requestBody!.content['multipart/form-data']!
      .schema;
    // The form's file limit (413 above it) is its bound.
    expect(body.properties.file).toEqual({ type: 'string', format: 'binary', maxLength: 5 * 1024 * 1024 });
    expect(body.required).toEqual(['file']);
  });

  it('answers errors as problem details', () => {
    const responses = operationOf('PATCH', '/shipping-method/{id}')!.responses;
    for (const status of ['400', '401', '403', '404', '415', '429', '500', '503']) {
      expect(responses[status], status).toEqual({ $ref: `#/components/responses/Problem${status}` });
    }
    // Shipping methods have no state to conflict with.
    expect(responses).not.toHaveProperty('409');
    expect(Object.keys(document.components.schemas.ProblemDetails!.properties)).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'errors',
      'errorsNotListed',
      'reason',
      'error',
      'requestId',
    ]);
  });

  it('documents the ticket state codes from the constants', () => {
    const ticket = document.components.schemas.Ticket!.properties;
    expect(ticket.processState!.enum).toEqual(Object.values(PROCESS_STATE));
    expect(ticket.processState!.description).toMatch(/`4` = cancelled/);
    expect(ticket.transferState!.enum).toEqual(['none', 'transferred']);
    expect(ticket.withdrawnState!.description).toMatch(/`withdrawn` = /);
    expect(ticket.upgradeState!.description).toMatch(/`upgraded` = /);
    expect(ticket.deleted!.enum).toEqual([0, 1]);
    expect(successOf('GET', '/tickets/{id}')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/Ticket' } },
      required: ['data'],
    });
  });
});

describe('the success answers', () => {
  it('every route declares its answer: a response schema, a binary media type, or a status of 204 or 302 and no body', () => {
    const undeclared = operations
      .filter(
        ({ schemas }) =>
          (schemas.response === undefined && schemas.binary === undefined) !==
          (schemas.status === 204 || schemas.status === 302),
      )
      .map(({ row }) => routeKey(row));
    expect(undeclared).toEqual([]);
  });

  it('documents each route with its declared schema and status', () => {
    for (const { row, schemas } of operations) {
      const responses = operationOf(row.method, row.path)!.responses;
      const status = String(schemas.status ?? 200);
      expect(responses[status], routeKey(row)).toBeDefined();
      expect(
        Object.keys(responses).filter((code) => /^[23]/.test(code) && code !== status && code !== '204'),
        routeKey(row),
      ).toEqual([]);
      expect(successOf(row.method, row.path, status) !== undefined, routeKey(row)).toBe(schemas.response !== undefined);
    }
    expect(Object.keys(operationOf('POST', '/shipping-method')!.responses)).toEqual(
      expect.arrayContaining(['201', '204']),
    );
    expect(operationOf('DELETE', '/tickets/{id}')!.responses['204']).toEqual({
      description: 'Done; no body.',
      headers: { 'Access-Control-Allow-Origin': { $ref: '#/components/headers/AccessControlAllowOrigin' } },
    });
    expect(operationOf('GET', '/auth/callback')!.responses['302']).toMatchObject({
      description: 'A redirect (`Location`).',
    });
  });

  it('keeps the 204 alternative on the result= routes, and only there', () => {
    const withResult = routes
      .filter((row) => operationOf(row.method, row.path)!.parameters.some((parameter) => parameter.name === 'result'))
      .map(routeKey);
    expect(withResult.length).toBeGreaterThan(0);
    for (const row of routes) {
      const hasNone = '204' in operationOf(row.method, row.path)!.responses;
      expect(hasNone, routeKey(row)).toBe(
        withResult.includes(routeKey(row)) ||
          [
            'DELETE /tickets/{id}',
            'DELETE /webhooks/{id}',
            'DELETE /events/{id}',
            'DELETE /events/{id}/ticket-types/{typeId}',
            'DELETE /events/{id}/teams/{teamId}',
            'DELETE /events/{id}/wave-times/{waveId}',
            'DELETE /events/{id}/questions/{questionId}',
            'DELETE /events/{id}/waivers/{waiverId}',
            'DELETE /events/{id}/promo-codes/{codeId}',
          ].includes(routeKey(row)),
      );
    }
    expect(successOf('PATCH', '/shipping-method/{id}')).toMatchObject({
      properties: {
        count: { const: 1 },
        data: { anyOf: [{ type: 'integer' }, { $ref: '#/components/schemas/ShippingMethod' }] },
      },
      additionalProperties: false,
    });
  });

  it('has no generic envelope: the resources are named components, the envelopes exact', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).not.toContain('Envelope');
    expect(names).toEqual(
      expect.arrayContaining([
        'Ticket',
        'TicketHistoryEntry',
        'TicketWaiver',
        'ShippingMethod',
        'AdministratorProfile',
        'CheckInStats',
        'ProblemDetails',
      ]),
    );
    // Every answer body is a closed object: no answer documented as "anything under data".
    for (const { row, schemas } of operations) {
      const schema = successOf(row.method, row.path, String(schemas.status ?? 200));
      if (schema) expect(schema.additionalProperties, routeKey(row)).toBe(false);
    }
    expect(successOf('GET', '/shipping-method')).toMatchObject({
      required: ['totalCount', 'count', 'limit', 'offset', 'data'],
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ShippingMethod' } } },
    });
    expect(successOf('GET', '/tickets')!.properties.data.items).toEqual({ $ref: '#/components/schemas/Ticket' });
    expect(successOf('GET', '/auth/me')!.properties.data).toEqual({
      $ref: '#/components/schemas/AdministratorProfile',
    });
    expect(successOf('POST', '/auth/change-password')).toMatchObject({
      required: ['success', 'message'],
      additionalProperties: false,
    });
    expect(successOf('POST', '/shipping-method/bulk-read')!.properties.data.items.oneOf).toHaveLength(2);
    const ticket = document.components.schemas.Ticket as unknown as { properties: Record<string, any> };
    expect(ticket.properties.history!.properties.data.items).toEqual({
      $ref: '#/components/schemas/TicketHistoryEntry',
    });
    // Every $ref points at a component that exists.
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs.filter((name) => !names.includes(name))).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('$defs');
  });
});

describe('the catalogue (bin/openapi/catalogue.ts)', () => {
  it('has an entry for every row of the table, and none for a route that is gone', () => {
    expect(Object.keys(CATALOGUE).sort()).toEqual(routes.map(routeKey).sort());
  });

  it('describes only parameters the route has', () => {
    const stale = operations.flatMap(({ row }) => {
      const names = new Set(operationOf(row.method, row.path)!.parameters.map((parameter) => parameter.name));
      return Object.keys(CATALOGUE[routeKey(row) as keyof typeof CATALOGUE].parameters ?? {})
        .filter((name) => !names.has(name))
        .map((name) => `${routeKey(row)}: ${name}`);
    });
    expect(stale).toEqual([]);
    const used = new Set(
      Object.values(document.paths).flatMap((item) =>
        Object.values(item).flatMap((op) => op.parameters.map((p) => p.name)),
      ),
    );
    expect(Object.keys(PARAMETERS).filter((name) => !used.has(name))).toEqual([]);
  });

  it('keeps in step with the problem mapper it cannot import at build time', async () => {
    const { MAX_LISTED_ERRORS, PROBLEM_CONTENT_TYPE } = await import('#shared/http/problem-details');
    expect([DOCUMENTED_MAX_ERRORS, DOCUMENTED_PROBLEM_TYPE]).toEqual([MAX_LISTED_ERRORS, PROBLEM_CONTENT_TYPE]);
  });
});

describe('a complete document', () => {
  it('gives every operation a summary, a tag with a description, and every parameter a description', () => {
    const tags = new Map(document.tags.map((tag) => [tag.name, tag.description]));
    const undescribed: string[] = [];
    for (const row of routes) {
      const operation = operationOf(row.method, row.path)!;
      expect(operation.summary, routeKey(row)).toMatch(/\w/);
      expect(tags.get(operation.tags[0]!), routeKey(row)).toMatch(/\w/);
      for (const parameter of operation.parameters)
        if (!parameter.description) undescribed.push(`${routeKey(row)} ${parameter.name}`);
    }
    expect(undescribed).toEqual([]);
    expect(document.info.license?.name).toBeTruthy();
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'adminBearer',
      'adminCookie',
      'customerBearer',
      'customerCookie',
    ]);
  });

  it('documents 429 and 503 with Retry-After and a 500 on every operation', () => {
    for (const row of routes) {
      const responses = operationOf(row.method, row.path)!.responses;
      for (const status of ['400', '403', '429', '500', '503'])
        expect(responses[status], `${routeKey(row)} ${status}`).toBeDefined();
    }
    for (const status of ['429', '503'])
      expect(document.components.responses[`Problem${status}`].headers).toHaveProperty('Retry-After');
  });

  it('lists the 409 reasons of a route, and idempotent rows answer 409 request_in_flight and 422', () => {
    const reasons = (method: string, path: string) =>
      operationOf(method, path)!.responses['409']?.content['application/problem+json'].schema.allOf[1].properties.reason
        .enum as string[] | undefined;
    expect(reasons('POST', '/tickets/{id}/check-in')).toEqual(
      expect.arrayContaining(['already_checked_in', 'not_valid_for_event', 'request_in_flight']),
    );
    expect(reasons('POST', '/my-account')).toEqual(['email_taken']);
    expect(reasons('GET', '/tickets/{id}')).toBeUndefined();
    for (const row of routes.filter((r) => r.idempotent)) {
      expect(reasons(row.method, row.path), routeKey(row)).toContain('request_in_flight');
      expect(operationOf(row.method, row.path)!.responses['422'], routeKey(row)).toBeDefined();
      expect(
        operationOf(row.method, row.path)!.parameters.map((p) => p.name),
        routeKey(row),
      ).toContain('Idempotency-Key');
    }
  });

  it('has an example for each request body the spec leaves open, and real items in the bulk bodies', () => {
    const example = (method: string, path: string) =>
      operationOf(method, path)!.requestBody!.content['application/json']!.example;
    for (const [method, path] of [
      ['POST', '/tickets/{id}/transfer'],
      ['POST', '/tickets/{id}/sign-waivers'],
      ['POST', '/ticket/{ticketId}/claimant'],
      ['POST', '/ticket/{ticketId}/states'],
      ['POST', '/my-account'],
      ['PATCH', '/my-account'],
    ] as const) {
      expect(example(method, path), `${method} ${path}`).toBeDefined();
    }
    const bulkCreate = operationOf('POST', '/shipping-method/bulk-create')!.requestBody!.content['application/json']!
      .schema;
    expect(bulkCreate.properties.data.items).toMatchObject({ required: ['name'] });
  });

  it("documents the deprecation headers on the deprecated rows' successes", () => {
    for (const row of routes.filter((r) => r.successor)) {
      const success = operationOf(row.method, row.path)!.responses['200'];
      expect(Object.keys(success.headers), routeKey(row)).toEqual([
        'Deprecation',
        'Link',
        'Access-Control-Allow-Origin',
      ]);
    }
    expect(operationOf('GET', '/auth/callback')!.responses['302'].headers.Location.required).toBe(true);
  });

  it('states a bound on every input: strings a maxLength, integers a format and their range, arrays a maxItems', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        node.forEach((item, i) => {
          walk(item, `${where}.${i}`);
        });
        return;
      }
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const types = [schema.type].flat();
      if (types.includes('string') && schema.maxLength === undefined && !schema.enum && schema.const === undefined)
        unbounded.push(`${where}: string`);
      if (types.includes('integer') && (!schema.format || (schema.maximum ?? schema.exclusiveMaximum) === undefined))
        unbounded.push(`${where}: integer`);
      if (types.includes('array') && schema.maxItems === undefined) unbounded.push(`${where}: array`);
      for (const [key, value] of Object.entries(schema)) walk(value, `${where}.${key}`);
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(item)) {
        walk(op.parameters, `${method.toUpperCase()} ${path} parameters`);
        walk(op.requestBody, `${method.toUpperCase()} ${path} body`);
      }
    expect(unbounded).toEqual([]);
    // The bounds are the validation's: the tickets bulk delete takes at most 100 ids, however nested.
    const ids = operationOf('POST', '/tickets/bulk-delete')!.requestBody!.content['application/json']!.schema.properties
      .ids;
    expect(ids.maxItems).toBe(100);
    expect(ids.items.anyOf[1].maxItems).toBe(100);
    expect(operationOf('GET', '/tickets/{id}')!.parameters.find((p) => p.name === 'id')!.schema).toMatchObject({
      maxLength: 15,
      pattern: '^[1-9]\\d{0,14}$',
    });
  });

  it('names its environment and audience in the servers entry, and RFC 8725 on the token schemes', () => {
    expect(document.servers).toEqual([
      expect.objectContaining({ description: expect.stringMatching(/^Local development/), 'x-internal': false }),
    ]);
    const staging = buildOpenApi(operations, 'staging') as unknown as Document;
    expect(staging.servers[0]).toMatchObject({ description: expect.stringMatching(/staging/) });
    for (const scheme of ['adminBearer', 'customerBearer'])
      expect((document.components.securitySchemes[scheme] as { description: string }).description).toContain('RFC8725');
  });

  it('documents RateLimit-Policy and RateLimit on every 2xx and 4xx answer of the throttled rows, and only there', () => {
    for (const row of routes) {
      const operation = operationOf(row.method, row.path)! as Operation & { 'x-throttled'?: boolean };
      expect(operation['x-throttled'], routeKey(row)).toBe(row.throttled);
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(response.headers ?? {});
        const carries = headers.includes('RateLimit') && headers.includes('RateLimit-Policy');
        expect(carries, `${routeKey(row)} ${status}`).toBe(row.throttled === true && /^[24]/.test(status));
      }
      // 401 where a token is needed, 403 and 429 everywhere, throttled or not.
      expect(Object.keys(operation.responses), routeKey(row)).toEqual(expect.arrayContaining(['403', '429']));
    }
    expect(routes.filter((row) => row.throttled).map(routeKey)).toEqual(
      expect.arrayContaining(['POST /auth/legacy/login', 'PUT /my-account', 'POST /auth/legacy/forgot-password']),
    );
  });

  it("passes Spectral's OWASP API Security Top 10 rules with the repository's .spectral.yaml, offline: no error, no warning", () => {
    const root = join(import.meta.dirname, '../..');
    // Where the ruleset's overrides look for the document (.local/*.json).
    mkdirSync(join(root, '.local'), { recursive: true });
    const file = join(root, '.local', `openapi-lint-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(document));
    const run = spawnSync(
      join(root, 'node_modules/.bin/spectral'),
      ['lint', file, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--quiet'],
      { encoding: 'utf8', cwd: root },
    );
    rmSync(file, { force: true });
    const problems = JSON.parse(run.stdout) as { code: string; path: string[]; severity: number }[];
    expect(problems.map((problem) => `${problem.code} ${problem.path.join('.')}`)).toEqual([]);
    expect(run.status).toBe(0);
  }, 60_000);

  it("passes Redocly's recommended rules with the repository's .redocly.yaml: no error, no warning", () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const root = join(import.meta.dirname, '../..');
    // Offline: no telemetry, no update check.
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        file,
        '--config',
        join(root, '.redocly.yaml'),
        '--format',
        'json',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    rmSync(dir, { recursive: true, force: true });
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
