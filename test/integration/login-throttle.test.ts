import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '#shared/auth/passwords';
import { advanceClock, resetClock } from '#shared/clock';
import { createAdministrator, type Administrator } from '#shared/data/administrators';
import { logger } from '#shared/logger';
import { ACCOUNT_RULE, CLIENT_RULE } from '#shared/use-cases/auth/login-guard';
import { FORGOT_PASSWORD_CLIENT_LIMIT, FORGOT_PASSWORD_LIMIT } from '#shared/use-cases/auth/password-reset-request';
import { call } from '../support/api.ts';

const PASSWORD = 'the-right-password-1';

afterEach(() => {
  resetClock();
  vi.restoreAllMocks();
});

async function makeAdmin(): Promise<Administrator> {
  const login = `throttle-${randomUUID()}@test.local`;
  return createAdministrator({ login, email: login, name: 'Throttle Staff', permissions: [], vendorUser: 0, passwordHash: await hashPassword(PASSWORD) });
}

let addresses = 0;
/** A client address no other test uses. */
const newAddress = () => `203.0.${Math.floor(Math.random() * 250)}.${(addresses++ % 250) + 1}`;
const legacyLogin = (login: string, password: string, sourceIp?: string) =>
  call('POST', '/api/v2/auth/legacy/login', { body: { login, password }, ...(sourceIp ? { sourceIp } : {}) });

describe('throttled legacy logins', () => {
  it('80 wrong passwords (from ever new addresses) end in 429 after the 5th; the right one is 429 during the lock-out, 200 after it', async () => {
    const admin = await makeAdmin();
    const statuses: number[] = [];
    for (let i = 0; i < 80; i++) statuses.push((await legacyLogin(admin.login, `wrong-guess-${i}`)).status);
    expect(statuses.slice(0, ACCOUNT_RULE.failures)).toEqual(Array(ACCOUNT_RULE.failures).fill(401));
    expect(new Set(statuses.slice(ACCOUNT_RULE.failures))).toEqual(new Set([429]));

    const locked = await legacyLogin(admin.login, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_RULE.lockSeconds);

    advanceClock(retryAfter * 1000);
    expect((await legacyLogin(admin.login, PASSWORD)).status).toBe(200);
  });

  it('locks out for longer each time, and counts unknown logins like known ones', async () => {
    const login = `nobody-${randomUUID()}@test.local`;
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < ACCOUNT_RULE.failures; i++) expect((await legacyLogin(login, 'a-wrong-password')).status).toBe(401);
      const refused = await legacyLogin(login, 'a-wrong-password');
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      advanceClock(waits.at(-1)! * 1000);
    }
    expect(waits).toEqual([ACCOUNT_RULE.lockSeconds, 2 * ACCOUNT_RULE.lockSeconds, 4 * ACCOUNT_RULE.lockSeconds]);
  });

  it(`limits one client address across accounts (${CLIENT_RULE.failures} failures), not the others`, async () => {
    const client = newAddress();
    for (let i = 0; i < CLIENT_RULE.failures; i++) {
      expect((await legacyLogin(`nobody-${randomUUID()}@test.local`, 'a-wrong-password', client)).status).toBe(401);
    }
    const admin = await makeAdmin();
    const refused = await legacyLogin(admin.login, PASSWORD, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await legacyLogin(admin.login, PASSWORD, newAddress())).status).toBe(200);
  });

  it('logs each failure with the account and the client address', async () => {
    const warn = vi.spyOn(logger, 'warn');
    const client = newAddress();
    const login = `nobody-${randomUUID()}@test.local`;
    expect((await legacyLogin(login, 'a-wrong-password', client)).status).toBe(401);
    expect(warn).toHaveBeenCalledWith('Failed login', expect.objectContaining({ login: 'legacy', account: login, clientAddress: client, reason: 'wrong_credentials' }));
  });

  it('limits wrong old passwords on change-password like logins, and they lock the login too', async () => {
    const admin = await makeAdmin();
    const token = (await legacyLogin(admin.login, PASSWORD)).body.data.jwt as string;
    const change = (oldPassword: string) =>
      call('POST', '/api/v2/auth/legacy/change-password', { token, body: { oldPassword, newPassword: 'a-brand-new-password-9' } });
    for (let i = 0; i < ACCOUNT_RULE.failures; i++) expect((await change(`wrong-old-${i}`)).status).toBe(400);
    expect((await change(PASSWORD)).status).toBe(429);
    expect((await legacyLogin(admin.login, PASSWORD)).status).toBe(429);
  });
});

describe('throttled forgot-password', () => {
  const forgot = (email: string, sourceIp: string) => call('POST', '/api/v2/auth/legacy/forgot-password', { body: { email }, sourceIp });

  it(`sends at most ${FORGOT_PASSWORD_CLIENT_LIMIT} per client address in an hour, whatever the addresses`, async () => {
    const client = newAddress();
    for (let i = 0; i < FORGOT_PASSWORD_CLIENT_LIMIT; i++) expect((await forgot(`nobody-${randomUUID()}@test.local`, client)).status).toBe(200);
    const refused = await forgot(`nobody-${randomUUID()}@test.local`, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await forgot(`nobody-${randomUUID()}@test.local`, newAddress())).status).toBe(200);
  });

  it('a stranger using up an address\'s requests cannot block its owner: the mailed links still work', async () => {
    const admin = await makeAdmin();
    const stranger = newAddress();
    for (let i = 0; i < FORGOT_PASSWORD_LIMIT; i++) expect((await forgot(admin.email, stranger)).status).toBe(200);
    expect((await forgot(admin.email, newAddress())).status).toBe(429);
    const { emails } = (await (await fetch(`${process.env.SES_STORE_URL}/store`)).json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
    const mails = emails.filter((mail) => mail.destination.to.includes(admin.email));
    expect(mails).toHaveLength(FORGOT_PASSWORD_LIMIT);
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mails[0]!.body.text ?? '')![1]!;
    const reset = await call('POST', '/api/v2/auth/legacy/reset-password', { body: { token, newPassword: 'the-owners-new-password' } });
    expect(reset.status).toBe(200);
  });
});
