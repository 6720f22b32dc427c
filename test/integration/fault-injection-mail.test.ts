import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordFloors } from '#shared/clock';
import { db, tableName } from '#shared/data/client';
import { findCustomerByEmail } from '#shared/identity/data/customers';
import { keys } from '#shared/data/keys';
import { keyCondition } from '#shared/data/key-conditions';
import { CLIENT_SETTINGS, clientOptions } from '#shared/aws-clients';
import { ses } from '#shared/services/email';
import { identitySdkClient } from '#shared/identity/services/identity-provider';
import { ANSWER_FLOOR_MS } from '#shared/identity/use-cases/password-reset-request';
import { userAdminSdkClient } from '#shared/identity/services/user-admin';
import { call } from '../support/api.ts';
import { createAccount, login, PASSWORD } from '../support/customers.ts';
import { clearFaults, expectUnavailable, failCalls, failures, slowCalls } from '../support/faults.ts';
import { adminToken } from '../support/tokens.ts';
import { oneTicket } from '../support/tickets.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { forgotPassword, makeAdmin } from '../support/staff.ts';
import { cognitoHasUser } from '../support/cognito.ts';

/**
 * Faults injected at the SES and Cognito clients the handlers use (README "Faults and
 * retries"): what each mailing or account route leaves behind when a dependency fails.
 */
afterEach(clearFaults);

let writer: string;
beforeAll(async () => {
  writer = await adminToken(['tickets:read', 'tickets:write'], 616_501);
});

const SEND = ['SendEmailCommand'];

describe('legacy forgot-password with the mail failing', () => {
  const tokensOf = async (adminId: number) =>
    (
      await db.send(
        new QueryCommand({ TableName: tableName(), ...keyCondition(keys.resetTokensOf(adminId)), Limit: 10 }),
      )
    ).Items ?? [];

  it('answers 503 and leaves no reset token whose mail never left; with the mail back, the next request mails the link', async () => {
    const admin = await makeAdmin({ password: 'an-old-password-123' });
    const fault = failCalls(ses, { commands: SEND, error: failures.sesThrottled });
    const floors = recordFloors();
    const floorsBefore = floors.length;
    expectUnavailable(await forgotPassword(admin.email), 'email');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.email.maxAttempts);
    // The 503 waits out the same floor as any answer.
    expect(floors.slice(floorsBefore)).toEqual([ANSWER_FLOOR_MS]);
    expect(await tokensOf(admin.id)).toEqual([]);
    expect(await mailTo(admin.email)).toEqual([]);

    await clearFaults();
    expect((await forgotPassword(admin.email)).status).toBe(200);
    expect(await tokensOf(admin.id)).toHaveLength(1);
    expect(await mailTo(admin.email)).toHaveLength(1);
  });

  it('SES slower than the request timeout: 503 and no token left (a 100 ms timeout)', async () => {
    const admin = await makeAdmin({ password: 'an-old-password-123' });
    const fault = await slowCalls(ses, {
      commands: SEND,
      timeoutMs: 100,
      restoreMs: clientOptions('email').requestHandler.requestTimeout,
    });
    expectUnavailable(await forgotPassword(admin.email), 'email');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.email.maxAttempts);
    expect(await tokensOf(admin.id)).toEqual([]);
  });

  it('an unknown address never reaches the mail, so it answers as always', async () => {
    const fault = failCalls(ses, { commands: SEND, error: failures.sesInternal });
    expect((await forgotPassword(newAddress('nobody'))).status).toBe(200);
    expect(fault.attempts).toBe(0);
  });
});

describe('POST /my-account with a dependency failing', () => {
  it('Cognito throttling on every attempt: 503, no record, no Cognito user; a later attempt succeeds', async () => {
    const email = newAddress('fault');
    const fault = failCalls(userAdminSdkClient(), {
      commands: ['AdminCreateUserCommand'],
      error: failures.cognitoThrottled,
    });
    expectUnavailable(await createAccount({ email, password: PASSWORD, name: 'Throttled' }), 'identity provider');
    expect(fault.attempts).toBe(CLIENT_SETTINGS['identity provider'].maxAttempts);
    expect(await findCustomerByEmail(email)).toBeUndefined();
    expect(await cognitoHasUser(email)).toBe(false);
    await clearFaults();
    expect((await createAccount({ email, password: PASSWORD, name: 'Throttled' })).status).toBe(201);
  });

  it('Cognito slower than the request timeout: 503, no record (a 100 ms timeout)', async () => {
    const email = newAddress('fault');
    const fault = await slowCalls(userAdminSdkClient(), {
      commands: ['AdminCreateUserCommand'],
      timeoutMs: 100,
      restoreMs: clientOptions('identity provider').requestHandler.requestTimeout,
    });
    expectUnavailable(await createAccount({ email, password: PASSWORD, name: 'Slow Pool' }), 'identity provider');
    expect(fault.attempts).toBe(CLIENT_SETTINGS['identity provider'].maxAttempts);
    expect(await findCustomerByEmail(email)).toBeUndefined();
    expect(await cognitoHasUser(email)).toBe(false);
  });

  it('Cognito failing on the password after the user was created: 503 and the user is removed again', async () => {
    const email = newAddress('fault');
    failCalls(userAdminSdkClient(), { commands: ['AdminSetUserPasswordCommand'], error: failures.cognitoInternal });
    expectUnavailable(await createAccount({ email, password: PASSWORD, name: 'Half Made' }), 'identity provider');
    expect(await cognitoHasUser(email)).toBe(false);
    expect(await findCustomerByEmail(email)).toBeUndefined();
  });

  it("the record's transaction in conflicts past its retries: 503, the Cognito user removed, retry-safe", async () => {
    const email = newAddress('fault');
    const fault = failCalls(db, { commands: ['TransactWriteItemsCommand'], error: failures.transactionConflict });
    expectUnavailable(await createAccount({ email, password: PASSWORD, name: 'Conflicted' }), 'database');
    expect(fault.attempts).toBeGreaterThan(3);
    expect(await cognitoHasUser(email)).toBe(false);
    expect(await findCustomerByEmail(email)).toBeUndefined();
    await clearFaults();
    expect((await createAccount({ email, password: PASSWORD, name: 'Conflicted' })).status).toBe(201);
  });

  it('SES failing: the account is created (201) without its mail, as documented', async () => {
    const email = newAddress('fault');
    const fault = failCalls(ses, { commands: SEND, error: failures.sesInternal });
    const created = await createAccount({ email, password: PASSWORD, name: 'Unmailed' });
    expect(created.status, created.raw).toBe(201);
    expect(fault.attempts).toBe(CLIENT_SETTINGS.email.maxAttempts);
    expect(await mailTo(email)).toEqual([]);
    expect(await findCustomerByEmail(email)).toBeDefined();
  });

  it('a customer sign-in with Cognito failing is a 503, not a wrong password', async () => {
    const email = newAddress('fault');
    expect((await createAccount({ email, password: PASSWORD, name: 'Signing In' })).status).toBe(201);
    failCalls(identitySdkClient(), { commands: ['InitiateAuthCommand'], error: failures.cognitoInternal });
    expectUnavailable(await login(email, PASSWORD), 'identity provider');
  });
});

describe('claims with the mail failing', () => {
  const TICKET = '/api/v2/ticket';
  it('the claim is committed (200) without its mail; the claimant route sends a fresh link (voiding the unsent one)', async () => {
    const { ticket } = await oneTicket();
    const address = newAddress('claimant');
    const fault = failCalls(ses, { commands: SEND, error: failures.sesInternal });
    const opened = await call('POST', `${TICKET}/${ticket.id}/claim`, {
      token: writer,
      body: { claimantEmail: address, claimantuserId: 'crm-9' },
    });
    expect(opened.status, opened.raw).toBe(200);
    expect(opened.body.data.state).toBe('open');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.email.maxAttempts);
    expect(await mailTo(address)).toEqual([]);

    await clearFaults();
    const resent = await call('POST', `${TICKET}/${ticket.id}/claimant`, {
      token: writer,
      body: { claimantEmail: address },
    });
    expect(resent.status, resent.raw).toBe(200);
    const mails = await mailTo(address);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.text).toMatch(/\/claim#token=[A-Za-z0-9_-]{43}/);
  });
});
