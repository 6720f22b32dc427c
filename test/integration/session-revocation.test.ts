import { randomInt, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_CHECK_SECONDS } from '#shared/identity/use-cases/session-check';
import { advanceClock, resetClock } from '#shared/clock';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { storeResetToken } from '#shared/identity/data/reset-tokens';
import { raiseSessionVersion } from '#shared/identity/data/session-versions';
import { hashResetToken } from '#shared/identity/domain/reset-token-hash';
import { call } from '../support/api.ts';
import { customerToken } from '../support/tokens.ts';
import { makeAdmin, resetPassword, signIn, type StaffOptions } from '../support/staff.ts';
import { commandTally } from '../support/command-tally.ts';
import { newContainer } from '../support/container.ts';

const PASSWORD = 'a-long-enough-password';
const NEW_PASSWORD = 'another-long-password-2';

const STAFF: StaffOptions = { permissions: ['tickets:read'], password: PASSWORD };

const me = (token: string) => call('GET', '/api/v2/auth/me', { token });
const refresh = (token: string) => call('POST', '/api/v2/auth/refresh', { token });

/** The session-version reads (GetItem with the `sessionVersion` projection) the API sends while `run` runs. */
const versionReadTally = commandTally<{ reads: number }>('versionReads', (tally, command, input, send) => {
  if (command === 'GetItemCommand' && input.ProjectionExpression === 'sessionVersion') tally.reads++;
  return send();
});
const versionReads = async (run: () => Promise<void>): Promise<number> =>
  (await versionReadTally({ reads: 0 }, run)).tally.reads;

beforeEach(() => newContainer());
afterEach(() => resetClock());

describe('revocable sessions', () => {
  it('logout ends every token of the account (logout everywhere), refresh included; the account can sign in again', async () => {
    const admin = await makeAdmin(STAFF);
    const laptop = await signIn(admin, PASSWORD);
    const phone = await signIn(admin, PASSWORD);
    expect((await me(phone)).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/legacy/logout', { token: laptop })).status).toBe(200);
    expect((await me(laptop)).status).toBe(401);
    expect((await me(phone)).status).toBe(401);
    expect((await refresh(phone)).status).toBe(401);
    expect((await me(await signIn(admin, PASSWORD))).status).toBe(200);
  });

  it('a password reset ends the old token and its refresh at once', async () => {
    const admin = await makeAdmin(STAFF);
    const old = await signIn(admin, PASSWORD);
    expect((await me(old)).status).toBe(200);
    const resetToken = `reset-${randomUUID()}`;
    await storeResetToken(hashResetToken(resetToken), admin.id, 3600);
    expect((await resetPassword(resetToken, NEW_PASSWORD)).status).toBe(200);
    expect((await me(old)).status).toBe(401);
    expect((await refresh(old)).status).toBe(401);
    expect((await me(await signIn(admin, NEW_PASSWORD))).status).toBe(200);
  });

  it("a password change ends every earlier token, the caller's too", async () => {
    const admin = await makeAdmin(STAFF);
    const other = await signIn(admin, PASSWORD);
    const caller = await signIn(admin, PASSWORD);
    const changed = await call('POST', '/api/v2/auth/legacy/change-password', {
      token: caller,
      body: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect((await me(caller)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await me(await signIn(admin, NEW_PASSWORD))).status).toBe(200);
  });

  it(`an end elsewhere (another container) shows within ${SESSION_CHECK_SECONDS} s; a refresh is refused at once`, async () => {
    const admin = await makeAdmin(STAFF);
    const token = await signIn(admin, PASSWORD);
    expect((await me(token)).status).toBe(200);
    // What another container's logout writes, without this container forgetting its cached version.
    expect(await raiseSessionVersion('admin', admin.id)).toBe(true);
    expect((await me(token)).status).toBe(200);
    expect((await refresh(token)).status).toBe(401);
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    expect((await me(token)).status).toBe(401);
  });

  it('reads no version for a token younger than the window, then one GetItem per account per container per window', async () => {
    const admin = await makeAdmin(STAFF);
    const token = await signIn(admin, PASSWORD);
    // Its session can only end after it was issued: trusted as the cache trusts a version, for the window.
    const young = await versionReads(async () => {
      for (let i = 0; i < 3; i++) expect((await me(token)).status).toBe(200);
    });
    expect(young).toBe(0);
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    const firstWindow = await versionReads(async () => {
      for (let i = 0; i < 5; i++) expect((await me(token)).status).toBe(200);
    });
    expect(firstWindow).toBe(1);
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    const nextWindow = await versionReads(async () => {
      for (let i = 0; i < 3; i++) expect((await me(token)).status).toBe(200);
    });
    expect(nextWindow).toBe(1);
  });

  it('refuses a young token ended elsewhere once the window since its issue has passed', async () => {
    const admin = await makeAdmin(STAFF);
    const token = await signIn(admin, PASSWORD);
    expect(await raiseSessionVersion('admin', admin.id)).toBe(true);
    advanceClock((SESSION_CHECK_SECONDS - 1) * 1000);
    expect((await me(token)).status).toBe(200);
    advanceClock(1000);
    expect((await me(token)).status).toBe(401);
  });

  it("refuses a customer token issued before the customer's sessions ended", async () => {
    const id = 990_000_000 + randomInt(1_000_000);
    // A bare record with a raised version: only `sessionVersion` matters to the check.
    await db.send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.customer(id), entity: 'Customer', sessionVersion: 1 } }),
    );
    const token = await customerToken(id);
    // Older than the window: a younger one is trusted without a read (the test above).
    advanceClock(SESSION_CHECK_SECONDS * 1000);
    const response = await call('GET', '/api/v2/my-account', { token });
    expect(response.status).toBe(401);
    expect(response.body.detail).toMatch(/session has ended/);
  });
});
