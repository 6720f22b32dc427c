import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '#shared/routes';
import { PROCESS_STATE } from '#shared/domain/ticket';
import { buildOpenApi, SUCCESS_STATUS, TICKET_ANSWERS } from '../../bin/openapi/document.ts';
import { loadRouteOperations } from '../../bin/openapi/load-routes.ts';

/**
 * The generated document, checked against the table it comes from. A unit test: building
 * it makes no calls, so it needs none of the integration project's services; loading the
 * handlers needs only the dummy cold-start environment, which `loadRouteOperations` fills in.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  deprecated?: boolean;
  description: string;
  security: Record<string, string[]>[];
  'x-permission'?: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { type?: string; format?: string }>; required?: string[]; additionalProperties?: boolean } }> };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, { enum?: unknown[]; description?: string }> }> };
}

let document: Document;
const operationOf = (method: string, path: string) => document.paths[path]?.[method.toLowerCase()];

beforeAll(async () => {
  document = buildOpenApi(await loadRouteOperations()) as unknown as Document;
}, 60_000);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/api/v2' }]);
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

  it('gives public rows no security and the others bearer or cookie, with their permission', () => {
    for (const row of routes) {
      const operation = operationOf(row.method, row.path)!;
      if (row.auth.kind === 'public') {
        expect(operation.security, routeKey(row)).toEqual([]);
        expect(operation.responses).not.toHaveProperty('401');
      } else {
        expect(operation.security, routeKey(row)).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
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
    const body = operationOf('POST', '/tickets/{id}/profile-photo')!.requestBody!.content['multipart/form-data']!.schema;
    expect(body.properties.file).toEqual({ type: 'string', format: 'binary' });
    expect(body.required).toEqual(['file']);
  });

  it('answers errors as problem details', () => {
    const responses = operationOf('PATCH', '/shipping-method/{id}')!.responses;
    for (const status of ['400', '401', '403', '404', '409', '415', '500']) {
      expect(responses[status], status).toEqual({ $ref: `#/components/responses/Problem${status}` });
    }
    expect(Object.keys(document.components.schemas.ProblemDetails!.properties)).toEqual(
      ['type', 'title', 'status', 'detail', 'instance', 'errors'],
    );
  });

  it('documents the ticket state codes from the constants', () => {
    const ticket = document.components.schemas.Ticket!.properties;
    expect(ticket.processState!.enum).toEqual(Object.values(PROCESS_STATE));
    expect(ticket.processState!.description).toMatch(/`4` = cancelled/);
    expect(ticket.transferState!.enum).toEqual(['none', 'transferred']);
    expect(ticket.withdrawnState!.description).toMatch(/`withdrawn` = /);
    expect(ticket.upgradeState!.description).toMatch(/`upgraded` = /);
    expect(ticket.deleted!.enum).toEqual([0, 1]);
    expect(operationOf('GET', '/tickets/{id}')!.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TicketAnswer' } } },
    });
  });

  it('names only rows of the table in its own per-route lists', () => {
    const keys = routes.map(routeKey);
    expect(Object.keys({ ...TICKET_ANSWERS, ...SUCCESS_STATUS }).filter((key) => !keys.includes(key))).toEqual([]);
  });
});
