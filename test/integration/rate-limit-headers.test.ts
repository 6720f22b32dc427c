import { afterEach, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { CLIENT_RULE, PAIR_RULE, RESET_MAIL_CLIENT } from '#shared/identity/use-cases/login-guard';
import { DAY_SECONDS, FORGOT_PASSWORD_LIMIT } from '#shared/identity/use-cases/password-reset-request';
import { call } from '../support/api.ts';
import { budgets } from '../support/rate-limits.ts';
import { forgotPassword, legacyLogin, makeAdmin } from '../support/staff.ts';
import { newAddress } from '../support/mail.ts';

/**
 * The throttled routes tell a client its budget before it is refused:
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10) on the
 * success and on the refusal, the remaining units going down with each counted request.
 */

afterEach(() => resetClock());

let networksMade = 0;
/** A client network no other test uses. */
const newNetwork = () => `198.51.${Math.floor(Math.random() * 250)}.${(networksMade++ % 250) + 1}`;

describe('RateLimit headers on the throttled routes', () => {
  it('a legacy login counts down its failures before the lock-out: 401 with r=4, r=3, ... then 429 with r=0 and t = Retry-After', async () => {
    const admin = await makeAdmin({ password: 'the-right-password-1' });
    const client = newNetwork();
    const pair = PAIR_RULE.name.toLowerCase();
    const network = CLIENT_RULE.name.toLowerCase();
    const remaining: number[] = [];
    for (let i = 0; i < PAIR_RULE.failures; i++) {
      const answer = await legacyLogin(admin.login, `wrong-${i}`, client);
      expect(answer.status).toBe(401);
      const { policy, left } = budgets(answer);
      expect(policy[pair]).toEqual({ q: PAIR_RULE.failures, w: PAIR_RULE.windowSeconds });
      expect(policy[network]).toEqual({ q: CLIENT_RULE.failures, w: CLIENT_RULE.windowSeconds });
      expect(left[network]!.r).toBe(CLIENT_RULE.failures - i - 1);
      expect(left[pair]!.t).toBeGreaterThan(0);
      expect(left[pair]!.t).toBeLessThanOrEqual(PAIR_RULE.windowSeconds);
      remaining.push(left[pair]!.r!);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const refused = await legacyLogin(admin.login, 'the-right-password-1', client);
    expect(refused.status).toBe(429);
    const { left } = budgets(refused);
    expect(left[pair]).toEqual({ r: 0, t: Number(refused.headers['retry-after']) });
  });

  it('a right password answers what is really left: the pair forgotten (its whole quota), the network attempt given back', async () => {
    const admin = await makeAdmin({ password: 'the-right-password-1' });
    const client = newNetwork();
    const pair = PAIR_RULE.name.toLowerCase();
    const network = CLIENT_RULE.name.toLowerCase();
    for (let i = 0; i < 2; i++) expect((await legacyLogin(admin.login, `wrong-${i}`, client)).status).toBe(401);
    const signedIn = await legacyLogin(admin.login, 'the-right-password-1', client);
    expect(signedIn.status).toBe(200);
    const { left } = budgets(signedIn);
    expect(left[pair]!.r).toBe(PAIR_RULE.failures);
    // The two failures stay counted against the network; the right password's own attempt does not.
    expect(left[network]!.r).toBe(CLIENT_RULE.failures - 2);
    // And the next wrong one counts from there.
    const after = budgets(await legacyLogin(admin.login, 'wrong-again', client)).left;
    expect(after[pair]!.r).toBe(PAIR_RULE.failures - 1);
    expect(after[network]!.r).toBe(CLIENT_RULE.failures - 3);
  });

  it('forgot-password counts down the address and the client budgets on its 200s, and says 0 on the 429', async () => {
    const address = newAddress('budget');
    const client = newNetwork();
    const seen: Record<string, Record<string, number>>[] = [];
    for (let i = 0; i < FORGOT_PASSWORD_LIMIT; i++) {
      const answer = await forgotPassword(address, client);
      expect(answer.status).toBe(200);
      const { policy, left } = budgets(answer);
      expect(policy).toEqual({
        forgot_password_client: { q: RESET_MAIL_CLIENT.limit, w: RESET_MAIL_CLIENT.windowSeconds },
        forgot_password: { q: FORGOT_PASSWORD_LIMIT, w: DAY_SECONDS },
      });
      seen.push(left);
    }
    expect(seen.map((left) => left.forgot_password!.r)).toEqual([2, 1, 0]);
    expect(seen.map((left) => left.forgot_password_client!.r)).toEqual([9, 8, 7]);

    const refused = await forgotPassword(address, client);
    expect(refused.status).toBe(429);
    expect(budgets(refused).left.forgot_password).toEqual({ r: 0, t: Number(refused.headers['retry-after']) });
    // The client's budget was counted too (its slot is taken first): it keeps going down.
    expect(budgets(refused).left.forgot_password_client!.r).toBe(6);
  });

  it('sends none where nothing was counted: a request refused on its form', async () => {
    const malformed = await call('POST', '/api/v2/auth/legacy/forgot-password', {
      body: { email: 'not an address' },
      sourceIp: newNetwork(),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers).not.toHaveProperty('ratelimit');
    expect(malformed.headers).not.toHaveProperty('ratelimit-policy');
  });
});
