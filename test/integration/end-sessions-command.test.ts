import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_CHECK_SECONDS } from '#shared/identity/use-cases/session-check';
import { advanceClock, resetClock } from '#shared/clock';
import { endSessions, parseAccount, UsageError } from '../../bin/maintenance/end-sessions.ts';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { customerToken } from '../support/tokens.ts';
import { newContainer } from '../support/container.ts';

/**
 * Ending a customer's sessions: nothing in the API raises a customer's session version
 * (no logout or password route for the portal in the spec), so the maintenance command
 * does (README "Sessions and revocation").
 */
const me = (token: string) => call('GET', '/api/v2/my-account', { token });
const tokenOf = (customer: { id: number; email: string }, sessionVersion?: number) =>
  customerToken(customer.id, { email: customer.email, sessionVersion });

beforeEach(() => newContainer());
afterEach(() => resetClock());

describe("ending a customer's sessions (bin/maintenance/end-sessions.ts --customer)", () => {
  it('ends every earlier token of the customer within the 30 s check window; a token issued under the new version is accepted', async () => {
    const customer = await newCustomer();
    const before = await tokenOf(customer);
    expect((await me(before)).status).toBe(200);

    expect(await endSessions('customer', customer.id)).toBe(1);
    // This container read the version just before (a function elsewhere, not the command): it may keep it for the window.
    expect((await me(before)).status).toBe(200);
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    const ended = await me(before);
    expect(ended.status).toBe(401);
    expect(ended.body.detail).toMatch(/session has ended/);

    expect((await me(await tokenOf(customer, 1))).status).toBe(200);
  });

  it('refuses at once, on a container that had not cached the version, a token older than the window', async () => {
    const customer = await newCustomer();
    const before = await tokenOf(customer);
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    await endSessions('customer', customer.id);
    expect((await me(before)).status).toBe(401);
  });

  it('refuses an id without a record, and anything but exactly one account id', async () => {
    await expect(endSessions('customer', 9_007_199_254_740_991)).rejects.toThrow(UsageError);
    expect(parseAccount({ customer: '42' })).toEqual({ owner: 'customer', id: 42 });
    expect(parseAccount({ administrator: '7' })).toEqual({ owner: 'admin', id: 7 });
    for (const values of [
      {},
      { customer: '1', administrator: '2' },
      { customer: 'abc' },
      { customer: '0' },
      { customer: '99999999999999999' },
    ]) {
      expect(() => parseAccount(values), JSON.stringify(values)).toThrow(UsageError);
    }
  });
});
