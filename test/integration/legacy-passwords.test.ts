import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { advanceClock, recordFloors, resetClock } from '#shared/clock';
import { ANSWER_FLOOR_MS } from '#shared/identity/use-cases/password-reset-request';
import { getAdministrator } from '#shared/identity/data/administrators';
import { call } from '../support/api.ts';
import { ADMIN_UI_URL } from '../support/env.ts';
import {
  forgotPassword,
  legacyLogin,
  makeAdmin,
  resetPassword,
  staffToken,
  useSiteAuthMethod,
} from '../support/staff.ts';
import { mailTo, newAddress, newestLinkToken } from '../support/mail.ts';
import { tightestLeft } from '../support/rate-limits.ts';

const OLD = 'the-old-password-123';
const NEW = 'the-new-password-456';

afterEach(() => {
  resetClock();
  useSiteAuthMethod('legacy');
});

/** The token in the newest reset link mailed to an address. */
const tokenFromMail = (address: string) => newestLinkToken(address, 'reset-password');

describe('POST /auth/legacy/change-password', () => {
  it('sets the new password after checking the old one', async () => {
    const admin = await makeAdmin({ password: OLD });
    const response = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: await staffToken(admin),
      body: { oldPassword: OLD, newPassword: NEW },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: expect.any(String) });
    expect((await legacyLogin(admin.login, NEW)).status).toBe(200);
    expect((await legacyLogin(admin.login, OLD)).status).toBe(401);
  });

  it('refuses a wrong old password, naming the field, and keeps the password', async () => {
    const admin = await makeAdmin({ password: OLD });
    const response = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: await staffToken(admin),
      body: { oldPassword: 'not-the-old-one', newPassword: NEW },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: 'body.oldPassword', message: expect.any(String) }]);
    // The old password is guarded as a login is: one of its 5 attempts spent, and the client is told (RateLimit headers).
    expect(tightestLeft(response)).toBe(4);
    expect((await legacyLogin(admin.login, OLD)).status).toBe(200);
  });

  it.each([
    ['shorter than 12 characters', 'too-short'],
    ['longer than 1024 characters', 'x'.repeat(1025)],
    ['equal to the old one', OLD],
  ])('refuses a new password %s', async (_name, newPassword) => {
    const admin = await makeAdmin({ password: OLD });
    const response = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: await staffToken(admin),
      body: { oldPassword: OLD, newPassword },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('body.newPassword');
  });

  it('answers 403 for an account that signs in through the identity provider', async () => {
    const admin = await makeAdmin();
    const response = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: await staffToken(admin),
      body: { oldPassword: OLD, newPassword: NEW },
    });
    expect(response.status).toBe(403);
  });

  it('answers 403 when the site signs in through the identity provider', async () => {
    const admin = await makeAdmin({ password: OLD });
    useSiteAuthMethod('idp');
    const response = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: await staffToken(admin),
      body: { oldPassword: OLD, newPassword: NEW },
    });
    expect(response.status).toBe(403);
  });
});

describe('POST /auth/legacy/forgot-password', () => {
  it('answers byte for byte the same for a known and an unknown address', async () => {
    const admin = await makeAdmin({ password: OLD });
    const known = await forgotPassword(admin.email);
    const unknown = await forgotPassword(newAddress('nobody'));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.raw).toBe(unknown.raw);
    expect(known.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(known.body).toEqual({ data: { success: true, message: expect.any(String) } });
  });

  it('holds the answer for a known and an unknown address to the same floor, so its time does not tell them apart', async () => {
    const admin = await makeAdmin({ password: OLD });
    // Recorded, not slept through (shared/clock.ts): what each answer waited for.
    const floors = recordFloors();
    const before = floors.length;
    await forgotPassword(admin.email);
    await forgotPassword(newAddress('nobody'));
    expect(floors.slice(before)).toEqual([ANSWER_FLOOR_MS, ANSWER_FLOOR_MS]);
  });

  it('mails a link to the admin UI reset page, from EMAIL_FROM, to a known address only', async () => {
    const admin = await makeAdmin({ password: OLD });
    const stranger = newAddress('nobody');
    await forgotPassword(admin.email);
    await forgotPassword(stranger);
    const [mail] = await mailTo(admin.email);
    expect(mail).toMatchObject({ from: process.env.EMAIL_FROM, subject: expect.any(String) });
    expect(mail!.body.text).toContain(`${ADMIN_UI_URL}/reset-password#token=`);
    expect(await mailTo(stranger)).toEqual([]);
    // At least 32 random bytes, base64url.
    expect((await tokenFromMail(admin.email)).length).toBeGreaterThanOrEqual(43);
  });

  it.each([
    ['a known', true],
    ['an unknown', false],
  ])('refuses the 4th request for %s address within 24 hours with 429 and Retry-After', async (_name, known) => {
    const email = known ? (await makeAdmin({ password: OLD })).email : newAddress('nobody');
    for (let i = 0; i < 3; i++) expect((await forgotPassword(email)).status).toBe(200);
    advanceClock(23 * 3600 * 1000);
    const fourth = await forgotPassword(email);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // Counted per address string: another address is not affected, and the window slides.
    expect((await forgotPassword(newAddress('other'))).status).toBe(200);
    advanceClock(3601 * 1000);
    expect((await forgotPassword(email)).status).toBe(200);
  });

  it('counts the address case-insensitively', async () => {
    const email = `Case-${randomUUID()}@test.local`;
    for (const variant of [email, email.toLowerCase(), email.toUpperCase()])
      expect((await forgotPassword(variant)).status).toBe(200);
    expect((await forgotPassword(email)).status).toBe(429);
  });

  it('refuses a malformed address with 400', async () => {
    expect((await forgotPassword('not-an-address')).status).toBe(400);
  });

  it('answers 403 when the site signs in through the identity provider', async () => {
    useSiteAuthMethod('idp');
    expect((await forgotPassword(newAddress('nobody'))).status).toBe(403);
  });
});

describe('POST /auth/legacy/reset-password', () => {
  it('resets the password with the mailed token once and only once', async () => {
    const admin = await makeAdmin({ password: OLD });
    await forgotPassword(admin.email);
    const token = await tokenFromMail(admin.email);
    const first = await resetPassword(token, NEW);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { success: true, message: expect.any(String) } });
    expect((await legacyLogin(admin.login, NEW)).status).toBe(200);
    expect((await legacyLogin(admin.login, OLD)).status).toBe(401);
    const second = await resetPassword(token, 'yet-another-password');
    expect(second.status).toBe(400);
    expect((await legacyLogin(admin.login, NEW)).status).toBe(200);
  });

  it('lets exactly one of two concurrent resets with the same token succeed', async () => {
    const admin = await makeAdmin({ password: OLD });
    await forgotPassword(admin.email);
    const token = await tokenFromMail(admin.email);
    const results = await Promise.all([
      resetPassword(token, 'concurrent-one-password'),
      resetPassword(token, 'concurrent-two-password'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'concurrent-one-password' : 'concurrent-two-password';
    expect((await legacyLogin(admin.login, winner)).status).toBe(200);
  });

  it("voids the administrator's other outstanding tokens", async () => {
    const admin = await makeAdmin({ password: OLD });
    await forgotPassword(admin.email);
    const older = await tokenFromMail(admin.email);
    await forgotPassword(admin.email);
    const newer = await tokenFromMail(admin.email);
    expect(newer).not.toBe(older);
    expect((await resetPassword(newer, NEW)).status).toBe(200);
    expect((await resetPassword(older, 'yet-another-password')).status).toBe(400);
  });

  it('refuses a token once 24 hours have passed', async () => {
    const admin = await makeAdmin({ password: OLD });
    await forgotPassword(admin.email);
    const token = await tokenFromMail(admin.email);
    advanceClock((24 * 3600 + 1) * 1000);
    const response = await resetPassword(token, NEW);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('body.token');
    resetClock();
    expect((await legacyLogin(admin.login, OLD)).status).toBe(200);
  });

  it('refuses an unknown token and a new password that breaks the policy', async () => {
    expect((await resetPassword('A'.repeat(43), NEW)).status).toBe(400);
    const admin = await makeAdmin({ password: OLD });
    await forgotPassword(admin.email);
    const weak = await resetPassword(await tokenFromMail(admin.email), 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.errors[0].path).toBe('body.newPassword');
  });
});

describe('legacy bcrypt hashes', () => {
  it('sign in with a bcrypt hash from the old system and are rehashed to scrypt', async () => {
    const admin = await makeAdmin({ passwordHash: bcrypt.hashSync(OLD, 4).replace(/^\$2b\$/, '$2y$') });
    expect((await legacyLogin(admin.login, 'not-the-password')).status).toBe(401);
    expect((await getAdministrator(admin.id))!.passwordHash).toMatch(/^\$2y\$/);
    expect((await legacyLogin(admin.login, OLD)).status).toBe(200);
    expect((await getAdministrator(admin.id))!.passwordHash).toMatch(/^\$scrypt\$/);
    expect((await legacyLogin(admin.login, OLD)).status).toBe(200);
  });
});
