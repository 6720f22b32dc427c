import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { MAX_TICKETS_PER_RESERVATION } from '#shared/selling/domain/reservation';
import { PORTAL_CSP } from '../../infra/front-end-csp.ts';
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
  // A locator, not a string waitForFunction: the portal's CSP (no 'unsafe-eval') refuses a string evaluated in the page.
  const escaped = expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.locator('#result', { hasText: new RegExp(`^${escaped}`) }).waitFor();
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

describe.skipIf(!chromiumAvailable)('buying on the portal page, in a browser', () => {
  /** What a gate device or a staff script sends: a staff login, then its calls with the bearer token, answers checked against the document. */
  async function asStaff(baseUrl: string, credentials: { login: string; password: string }) {
    const send = async (method: string, path: string, body?: unknown, token?: string) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        raw: await response.text(),
      };
      await checkHttpAnswer(method, `/api/v2${path}`, answer);
      return { status: answer.status, body: JSON.parse(answer.raw) };
    };
    const login = await send('POST', '/auth/legacy/login', credentials);
    expect(login.status).toBe(200);
    return (method: string, path: string, body?: unknown) => send(method, path, body, login.body.data.jwt);
  }

  it(
    'a customer reserves 2 tickets, checks out with the test card, sees the order active with its 2 tickets; a scanner admits one of them once',
    async () => {
      const { manifest, portalUrl } = stacks.legacy!;
      const page = await openPage(portalUrl);
      const refusedByCsp: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusedByCsp.push(message.text());
      });
      try {
        const csp = (await page.request.get(`${portalUrl}/`)).headers()['content-security-policy'] ?? '';
        expect(csp.startsWith(PORTAL_CSP.split('; connect-src')[0]!)).toBe(true);
        expect(csp).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com http:\/\/127\.0\.0\.1:\d+/);
        await page.fill('#customer-login', manifest.customer.login);
        await page.fill('#customer-password', manifest.customer.password);
        await page.click('#customer-signin');
        await waitForState(page, 'signed-in');

        // The published events, then one's types with what is left and their prices.
        await page.locator('#events-list button.choose-event', { hasText: 'City Marathon 2027' }).click();
        const half = page.locator('#event-types tr', { hasText: 'Half marathon' });
        const available = Number(await half.locator('.available').textContent());
        expect(available).toBeGreaterThan(2);
        expect(await page.locator('#wave-choice').isHidden()).toBe(false);
        // A refusal reads as a sentence (409 max_per_order), and nothing is held.
        await half.locator('.quantity').fill(String(MAX_TICKETS_PER_RESERVATION + 1));
        await page.click('#reserve');
        await page.waitForSelector('#message[data-reason="max_per_order"]:not([hidden])');
        expect(await page.locator('#message').textContent()).toBe('That is more tickets than one order may hold.');
        expect(await page.locator('#reservation').isHidden()).toBe(true);

        await half.locator('.quantity').fill('2');
        await page.click('#reserve');

        // Held: the countdown and the server's amounts (2 × 40).
        await page.waitForSelector('#reservation:not([hidden])');
        expect(await page.locator('#reservation-expiry').textContent()).toMatch(/^Held for you for \d+:\d{2}$/);
        expect(await page.locator('#reservation-total').getAttribute('data-total')).toBe('80');
        const reservationId = await page.locator('#reservation').getAttribute('data-reservation-id');
        for (const n of [0, 1]) {
          await page.fill(`#attendee-${n}-firstName`, `Runner${n}`);
          await page.fill(`#attendee-${n}-lastName`, 'Browser');
          await page.fill(`#attendee-${n}-email`, `runner${n}@demo.test`);
        }
        await clickForAnswer(page, '#checkout', `POST /api/v2/my-account/reservations/${reservationId}/checkout`, 201);

        // Paid with the test card against the Stripe stand-in, as Stripe.js would; the webhook makes it active.
        await page.waitForSelector('#payment:not([hidden])');
        expect(await page.locator('#test-card').inputValue()).toBe('pm_card_visa');
        await page.click('#pay');
        await page.waitForSelector('#order[data-status="active"]', { timeout: 60_000 });
        const tickets = page.locator('#order-tickets li');
        expect(await tickets.count()).toBe(2);
        const ticketIds = await tickets.evaluateAll((items) =>
          items.map((item) => item.getAttribute('data-ticket-id')!),
        );
        const orderId = await page.locator('#order').getAttribute('data-order-id');
        const customerAuth = `Bearer ${await page.evaluate<string>('sessionStorage.getItem("ticketing-customer-token")')}`;
        const orders = await fetchFromPage(page, 'GET', '/api/v2/my-account/orders?includeTickets=true&_limit=100', {
          authorization: customerAuth,
        });
        const order = (orders.body as { data: { id: string; status: string; tickets: { id: string }[] }[] }).data.find(
          (entry) => entry.id === orderId,
        )!;
        expect(order.status).toBe('active');
        expect(order.tickets.map((ticket) => ticket.id).sort()).toEqual([...ticketIds].sort());

        // The printable ticket, fetched by the page with the token and offered as a blob (the same PDF the route answers).
        const pdf = page.waitForResponse((response) => response.url().endsWith(`/tickets/${ticketIds[0]}/pdf`));
        await tickets.first().locator('.ticket-pdf').click();
        expect((await pdf).status()).toBe(200);
        expect((await pdf).headers()['content-type']).toMatch(/^application\/pdf/);
        expect(await tickets.first().locator('.ticket-pdf-link').getAttribute('href')).toMatch(/^blob:/);
        const printed = await page.request.get(`${portalUrl}/api/v2/my-account/tickets/${ticketIds[0]}/pdf`, {
          headers: { authorization: customerAuth },
        });
        expect((await printed.body()).subarray(0, 5).toString()).toBe('%PDF-');
        // All of it under the portal's deployed CSP (plus the stand-in's origin): nothing was refused.
        expect(refusedByCsp).toEqual([]);

        // At the gate: the ticket's barcode admits once; a second scan is refused.
        const scanner = await asStaff(manifest.baseUrl, manifest.scanner);
        const ticket = await scanner('GET', `/tickets/${ticketIds[0]}`);
        expect(ticket.status).toBe(200);
        const scan = () =>
          scanner('POST', '/scans', {
            eventId: ticket.body.data.eventId,
            scans: [{ id: randomUUID(), barcode: ticket.body.data.barcode, scannedAt: new Date().toISOString() }],
          });
        const first = await scan();
        expect(first.body.data).toMatchObject([{ result: 'admitted', ticketId: Number(ticketIds[0]) }]);
        const second = await scan();
        expect(second.body.data).toMatchObject([{ result: 'already_checked_in' }]);
      } finally {
        await page.context().close();
      }
    },
    TEST_MS,
  );

  it(
    "a customer buys a ticket of an event with a required question, posted by a method that requires an address: the server's 400 shows by field, then the answer, address and country are on the order",
    async () => {
      const { manifest, portalUrl } = stacks.legacy!;
      const staff = await asStaff(manifest.baseUrl, manifest.admin);
      const title = `Canal Ride ${randomUUID().slice(0, 8)}`;
      const created = await staff('POST', '/events', {
        title,
        start: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        timezone: 'Europe/Amsterdam',
        currency: 'EUR',
        bookingFee: { perTicket: 1.5 },
        ticketTypes: [{ name: 'Rider', price: 30, total: 50 }],
        questions: [
          { text: 'Emergency contact', required: true },
          { text: 'Jersey size', options: [{ text: 'S' }, { text: 'M' }] },
        ],
      });
      expect(created.status).toBe(201);
      const event = created.body.data;
      expect((await staff('PATCH', `/events/${event.id}`, { published: true, version: event.version })).status).toBe(
        200,
      );
      const method = await staff('POST', '/shipping-method?result=object', {
        name: `Post ${title}`,
        description: 'Tracked letter',
        charge: 4.5,
        requiresShippingInfo: true,
      });
      expect(method.status).toBe(201);
      const methodId = String(method.body.data.id);
      const [contact, jersey] = event.questions as { id: number; options: { id: number }[] }[];

      const page = await openPage(portalUrl);
      const refusedByCsp: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusedByCsp.push(message.text());
      });
      try {
        await page.fill('#customer-login', manifest.customer.login);
        await page.fill('#customer-password', manifest.customer.password);
        await page.click('#customer-signin');
        await waitForState(page, 'signed-in');
        await page.locator('#events-list button.choose-event', { hasText: title }).click();
        await page.waitForSelector('#shipping-choice:not([hidden])');
        await page.selectOption('#shipping', methodId);
        expect(await page.locator('#shipping-note').textContent()).toContain('domestic addresses only');
        // The type's price and, beside it, the booking fee one ticket adds (the server's preview), in the event's currency.
        const rider = page.locator('#event-types tr', { hasText: 'Rider' });
        expect(await rider.locator('.price').textContent()).toBe('€30.00 + €1.50 booking fee');
        expect(await rider.locator('.booking-fee').textContent()).toBe(' + €1.50 booking fee');
        await rider.locator('.quantity').fill('1');
        await page.click('#reserve');

        // Held, priced by the server: the ticket, its booking fee and the method's charge.
        await page.waitForSelector('#reservation:not([hidden])');
        expect(await page.locator('#reservation-total').getAttribute('data-total')).toBe('36');
        expect(await page.locator('#shipping-address-field').isHidden()).toBe(false);
        const question = (id: number) =>
          page.locator(`fieldset[data-attendee="0"] label.question[data-question-id="${id}"]`);
        expect(await question(contact!.id).getAttribute('data-required')).toBe('true');
        expect(await question(contact!.id).textContent()).toContain('(required)');
        await page.fill('#attendee-0-firstName', 'Rita');
        await page.fill('#attendee-0-lastName', 'Rider');
        await page.fill('#attendee-0-email', 'rita@demo.test');
        const reservationId = await page.locator('#reservation').getAttribute('data-reservation-id');
        const checkoutCall = `POST /api/v2/my-account/reservations/${reservationId}/checkout`;

        // Neither the required answer nor the address: the server's 400, each problem beside its field.
        await clickForAnswer(page, '#checkout', checkoutCall, 400);
        await page.waitForSelector('#message[data-reason="400"]:not([hidden])');
        expect(await page.locator('#message').textContent()).toBe('Please check the fields marked below.');
        expect(await question(contact!.id).locator('.field-problem').textContent()).toBe(
          `Question ${contact!.id} is required.`,
        );
        expect(await question(jersey!.id).locator('.field-problem').isHidden()).toBe(true);
        for (const field of ['shippingAddress', 'shippingCountry'])
          expect(await page.locator(`.field-problem[data-path="body.${field}"]`).textContent()).toContain('Required');

        const address = 'Prinsengracht 263, 1016 GV Amsterdam';
        await question(contact!.id).locator('input').fill('+31 20 555 0101');
        await question(jersey!.id).locator('select').selectOption(String(jersey!.options[1]!.id));
        await page.fill('#shipping-address', address);
        // A domestic-only method and `npm start`'s home country US: the Dutch address is refused beside its country.
        await page.fill('#shipping-country', 'nl');
        await clickForAnswer(page, '#checkout', checkoutCall, 400);
        const countryProblem = page.locator('.field-problem[data-path="body.shippingCountry"]');
        expect(await countryProblem.textContent()).toContain('posts within US only');
        const domestic = '350 Fifth Avenue, New York, NY 10118';
        await page.fill('#shipping-address', domestic);
        await page.fill('#shipping-country', 'us');
        await clickForAnswer(page, '#checkout', checkoutCall, 201);
        expect(await page.locator('.field-problem:not([hidden])').count()).toBe(0);

        await page.waitForSelector('#payment:not([hidden])');
        await page.click('#pay');
        await page.waitForSelector('#order[data-status="active"]', { timeout: 60_000 });
        expect(await page.locator('#order-shipping').textContent()).toBe(`Posted to: ${domestic} (US)`);
        const shown = page.locator('#order-tickets > li');
        expect(await shown.count()).toBe(1);
        expect(await shown.locator('.ticket-answers').textContent()).toContain('Emergency contact: +31 20 555 0101');
        expect(await shown.locator('.ticket-answers').textContent()).toContain('Jersey size: M');

        // The order as the API answers it: the address, the answers and the barcode the page showed.
        const orderId = await page.locator('#order').getAttribute('data-order-id');
        const customerAuth = `Bearer ${await page.evaluate<string>('sessionStorage.getItem("ticketing-customer-token")')}`;
        const orders = await fetchFromPage(
          page,
          'GET',
          `/api/v2/my-account/orders?includeTickets=true&includeAnswers=true&event=${event.id}`,
          { authorization: customerAuth },
        );
        const order = (
          orders.body as {
            data: {
              id: string;
              shipping: { shippingMethodId: number; address: string; country: string };
              tickets: { id: string; barcode: string; attendeeQuestions: unknown[] }[];
            }[];
          }
        ).data.find((entry) => entry.id === orderId)!;
        expect(order.shipping).toEqual({ shippingMethodId: Number(methodId), address: domestic, country: 'US' });
        expect(order.tickets[0]!.attendeeQuestions).toEqual([
          { questionId: contact!.id, answerText: '+31 20 555 0101' },
          { questionId: jersey!.id, answerId: jersey!.options[1]!.id },
        ]);
        expect(await shown.locator('.ticket-barcode').textContent()).toBe(order.tickets[0]!.barcode);
        const ticket = await staff('GET', `/tickets/${order.tickets[0]!.id}`);
        expect(ticket.body.data.barcode).toBe(order.tickets[0]!.barcode);
        expect(refusedByCsp).toEqual([]);
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
