import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { PERMISSIONS, routeKey, routes, type RouteRow } from '#shared/routes';
import { call } from '../support/api.ts';
import { ALLOWED_ORIGIN, PORTAL_ORIGIN } from '../support/env.ts';
import { adminToken, customerToken, expiredToken, foreignToken, tamperedToken, unsignedToken } from '../support/tokens.ts';

/** Every route of the table, walked: authentication and permission come from its row. */
const urlOf = (row: RouteRow) => `/api/v2${row.path.replace(/\{[^}]+\}/g, '1')}`;
const guarded = routes.filter((row) => row.auth.kind !== 'public');

describe.each(guarded.map((row) => [routeKey(row), row] as const))('%s', (_key, row) => {
  const send = (options: Parameters<typeof call>[2]) => call(row.method, urlOf(row), options);
  const wrongAudience = () => (row.auth.kind === 'admin' ? customerToken() : adminToken());
  // Each audience's routes accept only its own front end (shared/http/cors.ts): admin the admin SPA, customer the portal.
  const ownOrigin = row.auth.kind === 'admin' ? ALLOWED_ORIGIN : PORTAL_ORIGIN;
  const otherOrigin = row.auth.kind === 'admin' ? PORTAL_ORIGIN : ALLOWED_ORIGIN;

  it("answers CORS for its own front end's origin only", async () => {
    const own = await send({ headers: { origin: ownOrigin } });
    expect(own.headers['access-control-allow-origin']).toBe(ownOrigin);
    expect(own.headers['access-control-allow-credentials']).toBe('true');
    const other = await send({ headers: { origin: otherOrigin } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toBe('Origin');
  });

  it('is built from its own row', async () => {
    const module = await import(pathToFileURL(join(import.meta.dirname, '../../functions', `${row.handler}.ts`)).href);
    expect(module.handler.routeKey).toBe(routeKey(row));
  });

  it('answers 401 without a token', async () => {
    const response = await send({});
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['a tampered token', tamperedToken],
    ['an unsigned (alg none) token', async () => unsignedToken()],
    ['an expired token', () => expiredToken(row.auth.kind === 'customer' ? 'customer' : 'admin')],
    ['a token signed with another key', foreignToken],
    ['a token for the other audience', wrongAudience],
    ['a malformed Authorization header', async () => 'not a jwt'],
  ])('answers 401 for %s', async (_name, make) => {
    expect((await send({ token: await make() })).status).toBe(401);
  });

  it('answers 401 for a Basic Authorization header', async () => {
    expect((await send({ headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status).toBe(401);
  });

  if (row.auth.kind === 'admin' && row.auth.permission) {
    const needed = row.auth.permission;
    it(`answers 403 without the "${needed}" permission`, async () => {
      const response = await send({ token: await adminToken(PERMISSIONS.filter((p) => p !== needed)) });
      expect(response.status).toBe(403);
      expect(response.body.detail).toContain(needed);
    });
  }

  if (row.method !== 'GET') {
    it('refuses a cookie-only request from a foreign origin (CSRF)', async () => {
      const cookie = `${AUTH_COOKIE}=${row.auth.kind === 'admin' ? await adminToken() : await customerToken()}`;
      const foreign = await send({ cookies: [cookie], headers: { origin: 'https://evil.example', 'x-requested-with': 'fetch' } });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toBe('csrf_rejected');
      const noHeader = await send({ cookies: [cookie], headers: { origin: ownOrigin } });
      expect(noHeader.status).toBe(403);
      // The other front end's origin is foreign here: the portal cannot act with an administrator's cookie, nor the reverse.
      const otherFrontEnd = await send({ cookies: [cookie], headers: { origin: otherOrigin, 'x-requested-with': 'fetch' } });
      expect(otherFrontEnd.status).toBe(403);
      expect(otherFrontEnd.body.error).toBe('csrf_rejected');
    });
  }
});

describe('public routes', () => {
  it.each(routes.filter((row) => row.auth.kind === 'public').map((row) => [routeKey(row), row] as const))(
    '%s answers CORS for both front ends, not for a foreign origin',
    async (_key, row) => {
      for (const origin of [ALLOWED_ORIGIN, PORTAL_ORIGIN]) {
        const response = await call(row.method, urlOf(row), { headers: { origin } });
        expect(response.headers['access-control-allow-origin'], origin).toBe(origin);
      }
      const foreign = await call(row.method, urlOf(row), { headers: { origin: 'https://evil.example' } });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    },
  );
});
