import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { startDevStack, type DevStack } from '../support/dev-stack.ts';
import { checkHttpAnswer } from '../support/openapi-check.ts';
import { mailTo } from '../support/mail.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from '../support/chromium.ts';

/**
 * The local topology in a real browser (Debian's Chromium driven by playwright-core):
 * `npm start` (bin/dev.ts, a child process per login mode, in parallel) serves the admin
 * and portal pages with /api/* proxied to the API, as CloudFront does once deployed. From
 * both host names of the admin page: sign in (password, then cognito-local's hosted UI),
 * the cookie is stored, /auth/me works, an unsafe cookie call needs X-Requested-With,
 * refresh, sign out. And a customer on the portal page.
 */
if (!chromiumAvailable) console.warn(`browser.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium).`);

const STEP_MS = 15_000;
const TEST_MS = 90_000;

let browser: Browser | undefined;
const stacks: Partial<Record<'legacy' | 'idp', DevStack>> = {};

beforeAll(async () => {
  if (!chromiumAvailable) return;
  const started = await Promise.allSettled([startDevStack('legacy'), startDevStack('idp'), launchChromium()]);
  const [legacy, idp, launched] = started;
  if (legacy.status === 'fulfilled') stacks.legacy = legacy.value;
  if (idp.status === 'fulfilled') stacks.idp = idp.value;
  if (launched.status === 'fulfilled') browser = launched.value;
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, 240_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await Promise.all(Object.values(stacks).map((stack) => stack.stop()));
}, 60_000);

/** A fresh browser profile (no cookies) on one of the admin page's origins. */
async function openPage(url: string): Promise<Page> {
  const context = await browser!.newContext();
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  await page.goto(`${url}/`);
  return page;
}

const state = (page: Page) => page.locator('#status').getAttribute('data-state');
async function waitForState(page: Page, expected: 'signed-in' | 'signed-out'): Promise<void> {
  await page.waitForSelector(`#status[data-state="${expected}"]`);
}
/**
 * Clicks a button and waits for the answer the page shows for it: `#result` starts with
 * `<METHOD> <path> → <status>` (cleared first, so an earlier answer cannot pass for it).
 */
async function clickForAnswer(page: Page, selector: string, request: string, status: number): Promise<string> {
  await page.locator('#result').evaluate((result) => {
    result.textContent = '';
    result.setAttribute('data-status', '');
  });
  await page.click(selector);
  const expected = `${request} → ${status}`;
  await page.waitForFunction(`document.getElementById('result').textContent.startsWith(${JSON.stringify(expected)})`);
  return (await page.locator('#result').textContent()) ?? '';
}

/** A same-origin fetch from the page, as its own script would make it; the answer is checked against the OpenAPI document. */
async function fetchFromPage(
  page: Page,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  sent?: unknown,
) {
  const answer = await page.evaluate(
    async ({ method, path, headers, body }) => {
      const init: RequestInit = {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        credentials: 'same-origin',
      };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await fetch(path, init);
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        raw: await response.text(),
      };
    },
    { method, path, headers, body: sent },
  );
  await checkHttpAnswer(method, path, answer);
  let received: unknown;
  try {
    received = JSON.parse(answer.raw);
  } catch {
    received = undefined;
  }
  return { status: answer.status, body: received };
}

async function authCookie(page: Page, origin: string) {
  return (await page.context().cookies(origin)).find((cookie) => cookie.name === AUTH_COOKIE);
}

/** What both modes must do once signed in: the cookie, /auth/me, the CSRF defence, refresh. */
async function sessionCalls(page: Page, origin: string, login: string): Promise<void> {
  const cookie = await authCookie(page, origin);
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

  expect(await clickForAnswer(page, '#me', 'GET /api/v2/auth/me', 200)).toContain(login);

  // Cookie-authenticated and unsafe: refused without X-Requested-With, accepted with it.
  const forged = await fetchFromPage(page, 'POST', '/api/v2/auth/refresh');
  expect(forged).toMatchObject({ status: 403, body: { error: 'csrf_rejected' } });
  const refreshed = await fetchFromPage(page, 'POST', '/api/v2/auth/refresh', { 'x-requested-with': 'fetch' });
  expect(refreshed).toMatchObject({ status: 200, body: { data: { refreshed: true } } });

  expect(await clickForAnswer(page, '#refresh', 'POST /api/v2/auth/refresh', 200)).toContain('"refreshed": true');
  expect(await authCookie(page, origin)).toBeDefined();
}

async function signedOut(page: Page, origin: string): Promise<void> {
  await waitForState(page, 'signed-out');
  expect(await authCookie(page, origin)).toBeUndefined();
  expect((await fetchFromPage(page, 'GET', '/api/v2/auth/me')).status).toBe(401);
}

const origins = (stack: () => DevStack | undefined) =>
  [
    ['localhost', () => stack()!.adminUrl],
    ['127.0.0.1', () => stack()!.adminUrl.replace('//localhost:', '//127.0.0.1:')],
  ] as const;

describe.skipIf(!chromiumAvailable)('the admin page in a browser, password sign-in (SITE_AUTH_METHOD=legacy)', () => {
  it.each(origins(() => stacks.legacy))(
    'signs in from http://%s, makes cookie calls with the CSRF header, refreshes, signs out',
    async (_host, url) => {
      const { manifest } = stacks.legacy!;
      const origin = url();
      const page = await openPage(origin);
      try {
        await waitForState(page, 'signed-out');
        await page.fill('#login', manifest.admin.login);
        await page.fill('#password', manifest.admin.password);
        await page.click('#legacy-login');
        await waitForState(page, 'signed-in');
        await sessionCalls(page, origin, manifest.admin.login);

        await page.click('#logout');
        await signedOut(page, origin);
        await page.reload();
        expect(await waitForState(page, 'signed-out').then(() => state(page))).toBe('signed-out');
      } finally {
        await page.context().close();
      }
    },
    TEST_MS,
  );

  it(
    'refuses a wrong password and stays signed out',
    async () => {
      const { manifest, adminUrl } = stacks.legacy!;
      const page = await openPage(adminUrl);
      try {
        await page.fill('#login', manifest.admin.login);
        await page.fill('#password', 'not-the-password');
        await clickForAnswer(page, '#legacy-login', 'POST /api/v2/auth/legacy/login', 401);
        expect(await state(page)).toBe('signed-out');
        expect(await authCookie(page, adminUrl)).toBeUndefined();
      } finally {
        await page.context().close();
      }
    },
    TEST_MS,
  );
});

describe.skipIf(!chromiumAvailable)(
  'the admin page in a browser, identity-provider sign-in (SITE_AUTH_METHOD=idp)',
  () => {
    it.each(origins(() => stacks.idp))(
      'signs in from http://%s through the hosted UI and back, makes the same calls, signs out',
      async (_host, url) => {
        const { manifest } = stacks.idp!;
        const origin = url();
        const page = await openPage(origin);
        try {
          await waitForState(page, 'signed-out');
          await page.click('#idp-login');
          // cognito-local's sign-in form (test/support/cognito.ts posts the same fields).
          await page.waitForSelector('input[name="username"]');
          expect(new URL(page.url()).searchParams.get('redirect_uri')).toBe(`${origin}/api/v2/auth/callback`);
          await page.fill('input[name="username"]', manifest.admin.login);
          await page.fill('input[name="password"]', manifest.admin.password);
          await page.click('button[type="submit"]');
          // The provider -> this origin's /api/v2/auth/callback (cookie set) -> the page.
          await page.waitForURL(`${origin}/`);
          await waitForState(page, 'signed-in');
          await sessionCalls(page, origin, manifest.admin.login);

          // cognito-local has no /logout: stand in for the provider's, which sends the browser to logout_uri.
          await page.route(
            (target) => target.pathname === '/logout' && target.origin !== origin,
            (route) =>
              route.fulfill({
                status: 302,
                headers: { location: new URL(route.request().url()).searchParams.get('logout_uri')! },
              }),
          );
          await page.click('#logout');
          await page.waitForURL(`${origin}/`);
          await signedOut(page, origin);
        } finally {
          await page.context().close();
        }
      },
      TEST_MS,
    );
  },
);

describe.skipIf(!chromiumAvailable)('the portal page in a browser', () => {
  it.each(['localhost', '127.0.0.1'])(
    'signs a customer in from http://%s and reads GET /my-account',
    async (host) => {
      const { manifest, portalUrl } = stacks.legacy!;
      const origin = portalUrl.replace('//localhost:', `//${host}:`);
      const page = await openPage(origin);
      try {
        await page.fill('#customer-login', manifest.customer.login);
        await page.fill('#customer-password', manifest.customer.password);
        await page.click('#customer-signin');
        await waitForState(page, 'signed-in');
        expect(await clickForAnswer(page, '#my-account', 'GET /api/v2/my-account', 200)).toContain(
          `"emailAddress": "${manifest.customer.login}"`,
        );
      } finally {
        await page.context().close();
      }
    },
    TEST_MS,
  );
});

describe.skipIf(!chromiumAvailable)('a claimed ticket, from the mail to the portal, in a browser', () => {
  /** The newest link of a kind mailed to an address by the stack's SES stand-in. */
  async function mailedLink(mailStore: string, address: string, path: string): Promise<string> {
    const texts = (await mailTo(address, mailStore)).map((mail) => mail.body.text ?? '');
    const links = texts
      .flatMap((text) => text.split(/\s+/))
      .filter((word) => word.startsWith('http') && new URL(word).pathname === path);
    expect(links.length, `a ${path} link mailed to ${address}`).toBeGreaterThan(0);
    return links.at(-1)!;
  }

  it(
    'staff send a spare ticket; the friend opens the mailed links, signs in, accepts, and the ticket is theirs; no token ever in a URL the server sees',
    async () => {
      const { manifest, adminUrl, portalUrl } = stacks.legacy!;
      const friend = {
        email: `friend-${randomUUID().slice(0, 8)}@demo.test`,
        password: 'a-friend-password-1',
        name: 'Fran Friend',
      };
      const ticketId = manifest.tickets[0]!;
      const staff = await openPage(adminUrl);
      const portal = await openPage(portalUrl);
      const requested: string[] = [];
      portal.on('request', (request) => requested.push(request.url()));
      try {
        await staff.fill('#login', manifest.admin.login);
        await staff.fill('#password', manifest.admin.password);
        await staff.click('#legacy-login');
        await waitForState(staff, 'signed-in');
        const csrf = { 'x-requested-with': 'fetch' };
        expect((await fetchFromPage(staff, 'POST', '/api/v2/my-account', csrf, friend)).status).toBe(201);
        expect(
          (
            await fetchFromPage(staff, 'POST', `/api/v2/ticket/${ticketId}/claim`, csrf, {
              claimantEmail: friend.email,
              claimantuserId: '',
            })
          ).status,
        ).toBe(200);

        // The links carry their tokens in the fragment; the page keeps them for this tab and clears the address bar.
        const verify = await mailedLink(manifest.mailStore, friend.email, '/verify-email');
        const claim = await mailedLink(manifest.mailStore, friend.email, '/claim');
        expect(new URL(claim).hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
        await portal.goto(verify);
        expect(new URL(portal.url()).hash).toBe('');
        await portal.goto(claim);
        expect(new URL(portal.url()).hash).toBe('');
        await portal.waitForSelector('#claim:not([hidden])');
        expect(await portal.locator('#claim-accept').isHidden()).toBe(true);

        // Not signed in yet: sign in (the held verification token verifies the address), then accept.
        await portal.fill('#customer-login', friend.email);
        await portal.fill('#customer-password', friend.password);
        await portal.click('#customer-signin');
        await waitForState(portal, 'signed-in');
        await clickForAnswer(portal, '#claim-accept', 'POST /api/v2/my-account/claim', 200);
        expect(await portal.locator('#claimed-ticket').getAttribute('data-ticket-id')).toBe(String(ticketId));

        const claimed = await fetchFromPage(staff, 'GET', `/api/v2/ticket/${ticketId}/claim-info`);
        expect(claimed.body).toMatchObject({
          data: { state: 'claimed', isClaimed: true, claimantEmail: friend.email },
        });
        // Every request the portal made, page loads included: none carried a token.
        expect(requested.length).toBeGreaterThan(0);
        expect(requested.filter((url) => /token=/.test(url))).toEqual([]);
      } finally {
        await staff.context().close();
        await portal.context().close();
      }
    },
    TEST_MS,
  );
});
