import { afterEach, describe, expect, it, vi } from 'vitest';
import { advanceClock, epochSeconds, resetClock } from '#shared/clock';
import { logger } from '#shared/logger';
import { ACCOUNT_RULE, CLIENT_RULE, PAIR_RULE, UNDER_ATTACK_ATTEMPTS } from '#shared/identity/use-cases/login-guard';
import { FORGOT_PASSWORD_CLIENT_LIMIT, FORGOT_PASSWORD_LIMIT } from '#shared/identity/use-cases/password-reset-request';
import { call } from '../support/api.ts';
import { forgotPassword, legacyLogin, makeAdmin, resetPassword } from '../support/staff.ts';
import { linkTokenIn, mailTo, newAddress } from '../support/mail.ts';

const PASSWORD = 'the-right-password-1';

afterEach(() => {
  resetClock();
  vi.restoreAllMocks();
});

let networksMade = 0;
/** A client network no other test uses. */
const newNetwork = () => `203.0.${Math.floor(Math.random() * 250)}.${(networksMade++ % 250) + 1}`;

describe('throttled legacy logins', () => {
  it('5 wrong passwords from one network lock that network out of the account: the right one is 429 there during the lock-out, 200 after it', async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const client = newNetwork();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await legacyLogin(admin.login, `wrong-guess-${i}`, client)).status);
    expect(statuses.slice(0, PAIR_RULE.failures)).toEqual(Array(PAIR_RULE.failures).fill(401));
    expect(new Set(statuses.slice(PAIR_RULE.failures))).toEqual(new Set([429]));

    const locked = await legacyLogin(admin.login, PASSWORD, client);
    expect(locked.status).toBe(429);
    expect(locked.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PAIR_RULE.lockSeconds);

    advanceClock(retryAfter * 1000);
    expect((await legacyLogin(admin.login, PASSWORD, client)).status).toBe(200);
  });

  it('40 wrong passwords sent at once from one network check at most 5 of them; the rest are 429', async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const client = newNetwork();
    const statuses = (
      await Promise.all(Array.from({ length: 40 }, (_, i) => legacyLogin(admin.login, `parallel-guess-${i}`, client)))
    ).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(PAIR_RULE.failures);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40 - PAIR_RULE.failures);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
  });

  it('an attacker cannot lock the owner out: during the lock-out the owner signs in from another network', async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const attacker = newNetwork();
    for (let i = 0; i < PAIR_RULE.failures + 3; i++) await legacyLogin(admin.login, `attack-${i}`, attacker);
    expect((await legacyLogin(admin.login, PASSWORD, attacker)).status).toBe(429);
    expect((await legacyLogin(admin.login, PASSWORD, newNetwork())).status).toBe(200);
  });

  it(`an account under attack from many networks (${ACCOUNT_RULE.failures} failures) gives each network ${UNDER_ATTACK_ATTEMPTS} attempt, and never refuses the right password from a network that has not failed`, async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const networks = Array.from({ length: ACCOUNT_RULE.failures }, () => newNetwork());
    for (const network of networks) expect((await legacyLogin(admin.login, 'botnet-guess', network)).status).toBe(401);
    // A network that failed before the attack was noticed is down to its one attempt, already spent.
    expect((await legacyLogin(admin.login, PASSWORD, networks[0])).status).toBe(429);
    // A new network gets one guess, then is locked out of the account.
    const late = newNetwork();
    expect((await legacyLogin(admin.login, 'late-guess', late)).status).toBe(401);
    expect((await legacyLogin(admin.login, 'late-guess-2', late)).status).toBe(429);
    // The owner, on a network that has not failed, signs in.
    expect((await legacyLogin(admin.login, PASSWORD, newNetwork())).status).toBe(200);
    // 54 scrypt logins one after another: 8 s alone, past the 20 s default beside another deep file on 2 cores.
  }, 90_000);

  it(`counts an attack's failures across the turn of its fixed window: ${ACCOUNT_RULE.failures} split either side of it put the account under attack`, async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const half = ACCOUNT_RULE.failures / 2;
    const networks = Array.from({ length: ACCOUNT_RULE.failures }, () => newNetwork());
    for (const network of networks.slice(0, half))
      expect((await legacyLogin(admin.login, 'botnet-guess', network)).status).toBe(401);
    // To the start of the next fixed window: within 15 minutes of the first failures, in a window of their own.
    advanceClock((ACCOUNT_RULE.windowSeconds - (epochSeconds() % ACCOUNT_RULE.windowSeconds)) * 1000);
    for (const network of networks.slice(half))
      expect((await legacyLogin(admin.login, 'botnet-guess', network)).status).toBe(401);
    // Under attack: a network that failed since the turn has spent its one attempt; the owner's still signs in.
    expect((await legacyLogin(admin.login, PASSWORD, networks.at(-1))).status).toBe(429);
    expect((await legacyLogin(admin.login, PASSWORD, newNetwork())).status).toBe(200);
  }, 90_000);

  it('locks out for longer each time, and counts unknown logins like known ones', async () => {
    const login = newAddress('nobody');
    const client = newNetwork();
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < PAIR_RULE.failures; i++)
        expect((await legacyLogin(login, 'a-wrong-password', client)).status).toBe(401);
      const refused = await legacyLogin(login, 'a-wrong-password', client);
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      advanceClock(waits.at(-1)! * 1000);
    }
    // Retry-After counts down in real time from the moment the lock was written, so on a
    // slow machine it can already be a second or two under the full lock.
    const locks = [PAIR_RULE.lockSeconds, 2 * PAIR_RULE.lockSeconds, 4 * PAIR_RULE.lockSeconds];
    waits.forEach((wait, round) => {
      expect(wait).toBeLessThanOrEqual(locks[round]!);
      expect(wait).toBeGreaterThan(locks[round]! - 5);
    });
  });

  it(`limits one client address across accounts (${CLIENT_RULE.failures} failures), not the others`, async () => {
    const client = newNetwork();
    for (let i = 0; i < CLIENT_RULE.failures; i++) {
      expect((await legacyLogin(newAddress('nobody'), 'a-wrong-password', client)).status).toBe(401);
    }
    const admin = await makeAdmin({ password: PASSWORD });
    const refused = await legacyLogin(admin.login, PASSWORD, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await legacyLogin(admin.login, PASSWORD, newNetwork())).status).toBe(200);
  });

  it('counts IPv6 clients by their /64: new addresses in one /64 share its limit, another /64 has its own', async () => {
    const prefix = `2001:db8:${(networksMade++ % 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    for (let i = 0; i < CLIENT_RULE.failures; i++) {
      expect(
        (await legacyLogin(newAddress('nobody'), 'a-wrong-password', `${prefix}:${i.toString(16)}::${i + 1}`)).status,
      ).toBe(401);
    }
    expect((await legacyLogin(newAddress('nobody'), 'a-wrong-password', `${prefix}:ffff:ffff:ffff:1`)).status).toBe(
      429,
    );
    expect(
      (await legacyLogin(newAddress('nobody'), 'a-wrong-password', `${prefix.replace(/:[0-9a-f]+$/, ':1')}::1`)).status,
    ).not.toBe(429);
  });

  it('logs each failure with a keyed hash of the login, never the login itself, and the client network', async () => {
    const warn = vi.spyOn(logger, 'warn');
    const client = newNetwork();
    const login = newAddress('nobody');
    expect((await legacyLogin(login, 'a-wrong-password', client)).status).toBe(401);
    expect(warn).toHaveBeenCalledWith(
      'Failed login',
      expect.objectContaining({
        login: 'legacy',
        account: expect.stringMatching(/^hmac:[0-9a-f]{16}$/),
        clientAddress: client,
        reason: 'wrong_credentials',
      }),
    );
    expect(JSON.stringify(warn.mock.calls)).not.toContain(login);
    // The same login gives the same digest (an attack on one account reads as one).
    expect((await legacyLogin(login, 'another-wrong-password', client)).status).toBe(401);
    const digests = warn.mock.calls
      .filter(([message]) => message === 'Failed login')
      .map(([, fields]) => (fields as { account: string }).account);
    expect(new Set(digests).size).toBe(1);
  });

  it('limits wrong old passwords on change-password like logins, and they lock the login too (from that network)', async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const client = newNetwork();
    const token = (await legacyLogin(admin.login, PASSWORD, client)).body.data.jwt as string;
    const change = (oldPassword: string) =>
      call('POST', '/api/v2/auth/legacy/change-password', {
        token,
        body: { oldPassword, newPassword: 'a-brand-new-password-9' },
        sourceIp: client,
      });
    for (let i = 0; i < PAIR_RULE.failures; i++) expect((await change(`wrong-old-${i}`)).status).toBe(400);
    expect((await change(PASSWORD)).status).toBe(429);
    expect((await legacyLogin(admin.login, PASSWORD, client)).status).toBe(429);
  });
});

describe('throttled forgot-password', () => {
  it(`sends at most ${FORGOT_PASSWORD_CLIENT_LIMIT} per client address in an hour, whatever the addresses`, async () => {
    const client = newNetwork();
    for (let i = 0; i < FORGOT_PASSWORD_CLIENT_LIMIT; i++)
      expect((await forgotPassword(newAddress('nobody'), client)).status).toBe(200);
    const refused = await forgotPassword(newAddress('nobody'), client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await forgotPassword(newAddress('nobody'), newNetwork())).status).toBe(200);
  });

  it(`${FORGOT_PASSWORD_CLIENT_LIMIT * 3} requests sent at once from one client send at most ${FORGOT_PASSWORD_CLIENT_LIMIT}`, async () => {
    const client = newNetwork();
    const statuses = (
      await Promise.all(
        Array.from({ length: FORGOT_PASSWORD_CLIENT_LIMIT * 3 }, () => forgotPassword(newAddress('nobody'), client)),
      )
    ).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(FORGOT_PASSWORD_CLIENT_LIMIT);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(FORGOT_PASSWORD_CLIENT_LIMIT * 2);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
  });

  it("a stranger using up an address's requests cannot block its owner: the mailed links still work", async () => {
    const admin = await makeAdmin({ password: PASSWORD });
    const stranger = newNetwork();
    for (let i = 0; i < FORGOT_PASSWORD_LIMIT; i++)
      expect((await forgotPassword(admin.email, stranger)).status).toBe(200);
    expect((await forgotPassword(admin.email, newNetwork())).status).toBe(429);
    const mails = await mailTo(admin.email);
    expect(mails).toHaveLength(FORGOT_PASSWORD_LIMIT);
    const token = linkTokenIn(mails[0]!, 'reset-password');
    const reset = await resetPassword(token, 'the-owners-new-password');
    expect(reset.status).toBe(200);
  });
});
