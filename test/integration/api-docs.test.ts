import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP } from '../../infra/api-docs-site.ts';
import { startFrontEnd, type FrontEnd } from '../../bin/local/front-ends.ts';
import { startApiServer, type ApiServer } from '../../bin/local/server.ts';
import { chromiumAvailable, launchChromium } from '../support/chromium.ts';

/**
 * The API's documentation as `npm start` serves it: bin/local/server.ts started in this
 * worker (port 0) answers /api/v2/openapi.json, the Redoc page /api/v2/docs and its bundle;
 * an admin front-end server proxies them as CloudFront's behaviours do once deployed. Then
 * the page in Debian's Chromium, offline: every request that leaves 127.0.0.1 is aborted,
 * and there must be none.
 */

let api: ApiServer;
let frontEnd: FrontEnd;
let browser: Browser | undefined;

beforeAll(async () => {
  [api, frontEnd, browser] = await Promise.all([
    startApiServer({ port: 0 }),
    startFrontEnd({ name: 'admin', root: 'infra/pages/admin', port: 0 }),
    chromiumAvailable ? launchChromium() : undefined,
  ]);
  frontEnd.proxyTo(api.url);
}, 60_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await Promise.all([api?.close(), frontEnd?.close()]);
}, 30_000);

// The first request builds the document from every route's schemas: seconds on a loaded machine.
describe('GET /api/v2/openapi.json', { timeout: 60_000 }, () => {
  it('answers the document, public, with no-cache, a strong ETag and 304 for If-None-Match, also through the front end', async () => {
    const first = await fetch(`${api.url}/api/v2/openapi.json`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const document = (await first.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/tickets/{id}/check-in']).toHaveProperty('post');

    for (const origin of [api.url, frontEnd.origins[1]]) {
      const again = await fetch(`${origin}/api/v2/openapi.json`, { headers: { 'if-none-match': etag } });
      expect(again.status, origin).toBe(304);
      expect(again.headers.get('etag'), origin).toBe(etag);
      expect(await again.text()).toBe('');
      const other = await fetch(`${origin}/api/v2/openapi.json`, { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status, origin).toBe(200);
    }
  });

  it('answers the page at /docs and /docs/ with its CSP, the bundle as JavaScript, and 405 to other methods', async () => {
    for (const path of ['/api/v2/docs', '/api/v2/docs/']) {
      const page = await fetch(`${frontEnd.origins[0]}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(await page.text()).toContain('<redoc spec-url="/api/v2/openapi.json"');
    }
    const bundle = await fetch(`${api.url}/api/v2/docs/redoc.standalone.js`, { method: 'HEAD' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Number(bundle.headers.get('content-length'))).toBeGreaterThan(500_000);
    const posted = await fetch(`${api.url}/api/v2/openapi.json`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    // Not a file, not a route: the API's 404.
    expect((await fetch(`${api.url}/api/v2/docs/other.js`)).status).toBe(404);
  });
});

describe.skipIf(!chromiumAvailable)('the docs page in a browser', () => {
  it('renders every operation offline: no request leaves 127.0.0.1, no CSP violation', async () => {
    const document = (await (await fetch(`${api.url}/api/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; summary?: string }>>;
      webhooks: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    // The webhooks section's messages (README "Webhooks") render as operations too.
    const messages = Object.values(document.webhooks).flatMap((item) => Object.values(item));
    const checkIn = document.paths['/tickets/{id}/check-in']!.post!;

    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(30_000);
    const local = (url: string) =>
      ['127.0.0.1', 'localhost'].includes(new URL(url).hostname) || /^(blob|data):/.test(url);
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      if (local(route.request().url())) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request: Request) => requested.push(request.url()));
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(`${frontEnd.origins[1]}/api/v2/docs`);
      // Redoc renders one section per operation, with the operation id in its anchor.
      await page.waitForSelector(`[data-section-id$="/operation/${checkIn.operationId}"]`);
      const sections = await page.locator('[data-section-id*="/operation/"]').count();
      expect(sections).toBe(operations.length + messages.length);
      expect(messages.length).toBe(20);
      expect(operations.length).toBeGreaterThanOrEqual(55);
      // Its summary in the side menu; a click there scrolls its section, titled with it, into view.
      const label = checkIn.summary ?? checkIn.operationId;
      const item = page.locator(`[data-item-id$="/operation/${checkIn.operationId}"]`);
      expect(await item.getAttribute('aria-label')).toBe(label);
      // Its tag's group opens first (the menu starts collapsed).
      await page
        .locator(`[data-item-id="${(await item.getAttribute('data-item-id'))!.split('/operation/')[0]}"]`)
        .click();
      await item.click();
      const section = page.locator(`[data-section-id$="/operation/${checkIn.operationId}"]`);
      await expect.poll(() => section.locator('h2').first().textContent()).toContain(label);
      await expect.poll(() => section.locator('h2').first().isVisible()).toBe(true);
      if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT });

      expect(outside).toEqual([]);
      expect(requested.filter((url) => !local(url))).toEqual([]);
      expect(requested).toContain(`${frontEnd.origins[1]}/api/v2/openapi.json`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
