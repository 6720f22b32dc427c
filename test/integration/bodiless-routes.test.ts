import { describe, expect, it } from 'vitest';
import { routeKey, routes, type RouteRow } from '#shared/routes';
import { PERMISSIONS } from '#shared/auth/permissions';
import { call } from '../support/api.ts';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { signedInCustomer } from '../support/customers.ts';
import { adminToken } from '../support/tokens.ts';
import { schemasOf } from '../support/handlers.ts';

/**
 * A route whose spec shows no body takes none, an empty one and `{}` alike
 * (what generic clients send with `Content-Type: application/json`); any other body stays a
 * 400. Every unsafe row without a body schema, from the route table.
 */
const unsafe = routes.filter((row) => row.method !== 'GET');
const bodiless: RouteRow[] = [];
for (const row of unsafe) {
  const schemas = await schemasOf(row);
  if (!schemas.body && !schemas.multipart) bodiless.push(row);
}
const concrete = (row: RouteRow) => `/api/v2${row.path.replace(/\{[^}]+\}/g, '999999999')}`;
const BODY_REFUSED = /takes no request body/;

describe('routes that take no body', () => {
  it('are the check-in, the logouts, refresh and the other bodiless rows', () => {
    expect(bodiless.map(routeKey)).toEqual(
      expect.arrayContaining([
        'POST /tickets/{id}/check-in',
        'POST /auth/logout',
        'POST /auth/legacy/logout',
        'POST /auth/refresh',
      ]),
    );
  });

  it.each(bodiless.map((row) => [routeKey(row), row] as const))(
    '%s: no body, an empty body and {} pass the body check; another body is a 400',
    async (_key, row) => {
      const token =
        row.auth.kind === 'customer' ? (await signedInCustomer()).token : await adminToken([...PERMISSIONS]);
      const send = (body?: string, type?: string) =>
        call(row.method, concrete(row), {
          token,
          headers: { origin: ALLOWED_ORIGIN, ...(type ? { 'content-type': type } : {}) },
          ...(body !== undefined ? { body } : {}),
        });
      for (const [body, type] of [
        [undefined, undefined],
        ['', 'application/json'],
        ['{}', 'application/json'],
        [' { } ', 'application/json'],
        ['{}', 'text/plain'],
      ] as const) {
        const answer = await send(body, type);
        expect(
          answer.status === 400 && BODY_REFUSED.test(String(answer.body.detail)),
          `${JSON.stringify(body)} ${type}: ${answer.raw}`,
        ).toBe(false);
      }
      for (const body of ['{"a":1}', '[]', '"x"', 'null', '{}{}']) {
        const answer = await send(body, 'application/json');
        expect(answer.status, body).toBe(400);
        expect(answer.body.detail, body).toMatch(BODY_REFUSED);
      }
    },
  );
});
