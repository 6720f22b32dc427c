import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFrontEnd, type FrontEnd } from '../../bin/local/front-ends.ts';
import { startApiServer, type ApiServer } from '../../bin/local/server.ts';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { checkHttpAnswer } from '../support/openapi-check.ts';

/**
 * The pieces of `npm start`'s topology below the browser test: the local API server's own
 * answers (unmatched routes) and a front-end server's static files and /api proxy.
 */

describe('the local API server', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer({ port: 0 });
  });
  afterAll(() => api.close());

  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${api.url}${path}`, { ...init, headers: { origin: ALLOWED_ORIGIN, ...init.headers } });
  const securityAndCors = (headers: Headers) =>
    Object.fromEntries(
      [
        'cache-control',
        'content-security-policy',
        'referrer-policy',
        'strict-transport-security',
        'x-content-type-options',
        'x-frame-options',
        'access-control-allow-origin',
        'access-control-allow-credentials',
        'access-control-expose-headers',
        'vary',
      ].map((name) => [name, headers.get(name)]),
    );

  it('answers unmatched routes (404, 405) with the same security and CORS headers as a handler answer', async () => {
    const matched = await get('/api/v2/auth/me');
    expect(matched.status).toBe(401);
    await checkHttpAnswer('GET', matched.url, {
      status: matched.status,
      headers: matched.headers,
      raw: await matched.clone().text(),
    });
    const expected = securityAndCors(matched.headers);
    expect(expected['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(expected['content-security-policy']).toBeTruthy();

    const unknown = await get('/api/v2/no-such-route');
    expect(unknown.status).toBe(404);
    expect(securityAndCors(unknown.headers)).toEqual(expected);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');

    const wrongMethod = await get('/api/v2/auth/me', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(securityAndCors(wrongMethod.headers)).toEqual(expected);
  });

  it('gives a foreign origin no CORS grant on an unmatched route either', async () => {
    const response = await get('/api/v2/no-such-route', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('a front-end server', () => {
  let frontEnd: FrontEnd;
  let upstream: Server;
  const seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string }[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.setHeader('set-cookie', ['first=1; Path=/', 'second=2; Path=/']);
        res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end('{"ok":true}');
      });
    }).listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    frontEnd = await startFrontEnd({ name: 'admin', root: 'infra/pages/admin', port: 0 });
  });
  afterAll(async () => {
    await frontEnd.close();
    upstream.close();
  });

  it('answers /api/* with 503 until it knows the API', async () => {
    // A front end of its own: the shared one may already proxy (the tests run in any order).
    const unaware = await startFrontEnd({ name: 'admin', root: 'infra/pages/admin', port: 0 });
    try {
      const response = await fetch(`${unaware.origins[1]}/api/v2/auth/me`);
      expect(response.status).toBe(503);
    } finally {
      await unaware.close();
    }
  });

  it.each([0, 1])(
    'serves its files and falls back to index.html for client routes and escapes (origin %i)',
    async (index) => {
      const origin = frontEnd.origins[index]!;
      const page = await readFile('infra/pages/admin/index.html', 'utf8');
      const root = await fetch(`${origin}/`);
      expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await root.text()).toBe(page);
      expect(await (await fetch(`${origin}/tickets/42?tab=x`)).text()).toBe(page);
      const script = await fetch(`${origin}/app.js`);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await script.text()).toBe(await readFile('infra/pages/admin/app.js', 'utf8'));
      // Sent verbatim (fetch would normalise): '..' segments, and encoded slashes that decode into them.
      expect(await rawGet(origin, '/../../../package.json')).toBe(page);
      expect(await rawGet(origin, '/..%2f..%2f..%2fpackage.json')).toBe(page);
    },
  );

  it("serves the page's local settings as /config.json: {} until configured, then what it was given, never cached", async () => {
    const origin = frontEnd.origins[1];
    expect(await (await fetch(`${origin}/config.json`)).json()).toEqual({});
    frontEnd.configure({ paymentsBaseUrl: 'http://127.0.0.1:4242' });
    const answer = await fetch(`${origin}/config.json`);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ paymentsBaseUrl: 'http://127.0.0.1:4242' });
    expect((await fetch(`${origin}/config.json`, { method: 'POST' })).status).toBe(405);
  });

  it("serves its files with the CSP it was given, the page's local origins added to connect-src once configured", async () => {
    const portal = await startFrontEnd({
      name: 'portal',
      root: 'infra/pages/portal',
      port: 0,
      csp: "default-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    });
    try {
      const csp = async () => (await fetch(`${portal.origins[0]}/`)).headers.get('content-security-policy');
      expect(await csp()).toBe("default-src 'self'; connect-src 'self'; frame-ancestors 'none'");
      portal.configure({}, { connectSrc: ['http://127.0.0.1:4242'] });
      expect(await csp()).toBe("default-src 'self'; connect-src 'self' http://127.0.0.1:4242; frame-ancestors 'none'");
    } finally {
      await portal.close();
    }
    // None given (the admin page here): no header.
    expect((await fetch(`${frontEnd.origins[0]}/`)).headers.get('content-security-policy')).toBeNull();
  });

  it('proxies /api/* with method, path, query, body and the browser headers except Host, and passes every answer header back', async () => {
    frontEnd.proxyTo(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    const origin = frontEnd.origins[0];
    const response = await fetch(`${origin}/api/v2/my-account?x=1&y=%20`, {
      method: 'PUT',
      headers: {
        origin,
        cookie: '__Host-ticketing-auth=abc',
        'x-requested-with': 'fetch',
        'content-type': 'application/json',
      },
      body: '{"login":"a"}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['first=1; Path=/', 'second=2; Path=/']);
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });

    const forwarded = seen.at(-1)!;
    expect(forwarded).toMatchObject({ method: 'PUT', url: '/api/v2/my-account?x=1&y=%20', body: '{"login":"a"}' });
    expect(forwarded.headers).toMatchObject({
      origin,
      cookie: '__Host-ticketing-auth=abc',
      'x-requested-with': 'fetch',
      'x-forwarded-host': new URL(origin).host,
      'x-forwarded-proto': 'http',
      host: `127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
  });
});

/** A GET with the path sent verbatim (no URL normalisation), answering the body. */
async function rawGet(origin: string, path: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  const req = request({ host: hostname, port, path, method: 'GET' });
  req.end();
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of res) body += chunk;
  return body;
}
