import { AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { findCustomerByEmail } from '#shared/identity/data/customers';
import { keys } from '#shared/data/keys';
import { CustomerResource } from '#shared/identity/domain/customer';
import { SingleAnswer } from '#shared/http/answers';
import { PERMISSIONS } from '#shared/auth/permissions';
import { call } from '../support/api.ts';
import { createAccount, PASSWORD, verificationTokenFor } from '../support/customers.ts';
import { PORTAL_URL } from '../support/env.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { cognitoHasUser } from '../support/cognito.ts';

const cognito = new CognitoIdentityProviderClient({});
afterAll(() => cognito.destroy());

const poolId = () => process.env.CUSTOMER_COGNITO_USER_POOL_ID!;

const uniqueItem = async (email: string) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: keys.customerEmailUnique(email) }))).Item;

describe('POST /my-account (account creation by an administrator)', () => {
  it('creates an unverified account, answers 201 with the customer and mails the verification link to it', async () => {
    const email = newAddress();
    const response = await createAccount({ email, password: PASSWORD, name: 'Robin Runner' });

    expect(response.status).toBe(201);
    const { data } = SingleAnswer(CustomerResource).parse(response.body);
    expect(data).toMatchObject({
      emailAddress: email,
      name: 'Robin Runner',
      accountNumber: null,
      primary: null,
      billing: null,
      useInternationalShippingAddress: false,
      useInternationalBillingAddress: false,
      emailVerified: false,
      pendingEmailAddress: null,
    });
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.text).toContain(`${PORTAL_URL}/verify-email#token=`);
    expect(await cognitoHasUser(email)).toBe(true);
    expect((await findCustomerByEmail(email))?.id).toBe(data.id);
  });

  it('stores the address lower-cased, so it is the same login whatever the case', async () => {
    const email = newAddress();
    const response = await createAccount({ email: email.toUpperCase(), password: PASSWORD, name: 'Upper Case' });
    expect(response.status).toBe(201);
    expect(response.body.data.emailAddress).toBe(email);
    expect(await verificationTokenFor(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers 409 email_taken for an address a customer already has, in any case', async () => {
    const email = newAddress();
    expect((await createAccount({ email, password: PASSWORD, name: 'First' })).status).toBe(201);
    const again = await createAccount({ email: email.toUpperCase(), password: PASSWORD, name: 'Second' });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('email_taken');
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('answers 409 email_taken when Cognito has the address already, and writes no record', async () => {
    const email = newAddress();
    await cognito.send(
      new AdminCreateUserCommand({ UserPoolId: poolId(), Username: email, MessageAction: 'SUPPRESS' }),
    );
    const response = await createAccount({ email, password: PASSWORD, name: 'Late Comer' });
    expect(response.status).toBe(409);
    expect(response.body.reason).toBe('email_taken');
    expect(await findCustomerByEmail(email)).toBeUndefined();
    expect(await uniqueItem(email)).toBeUndefined();
    expect(await mailTo(email)).toEqual([]);
  });

  it('deletes the Cognito user again when the record cannot be written, so a later attempt starts clean', async () => {
    const email = newAddress();
    // A unique item without a record (as a concurrent creation would leave for a moment): the transaction fails after Cognito.
    await db.send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.customerEmailUnique(email), customerId: -1 } }),
    );
    const response = await createAccount({ email, password: PASSWORD, name: 'Unlucky' });
    expect(response.status).toBe(409);
    expect(response.body.reason).toBe('email_taken');
    expect(await cognitoHasUser(email)).toBe(false);
    expect(await findCustomerByEmail(email)).toBeUndefined();
    expect(await mailTo(email)).toEqual([]);

    await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.customerEmailUnique(email) }));
    expect((await createAccount({ email, password: PASSWORD, name: 'Lucky' })).status).toBe(201);
  });

  it.each([
    ['a password under 12 characters', { password: 'short-pw' }, 'body.password'],
    ['a password over 256 characters', { password: 'p'.repeat(257) }, 'body.password'],
    ['an empty name', { name: '   ' }, 'body.name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'body.name'],
    ['an address that is not one', { email: 'not-an-address' }, 'body.email'],
    ['an address over 254 characters', { email: `${'a'.repeat(250)}@test.local` }, 'body.email'],
    ['an unknown field', { group: 'customers' }, 'body.group'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_name, change, path) => {
    const email = newAddress();
    const response = await createAccount({ email, password: PASSWORD, name: 'Valid Name', ...change });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    expect(await cognitoHasUser(email)).toBe(false);
  });

  it('answers 401 to a customer token and 403 to an administrator without customers:manage', async () => {
    const body = { email: newAddress(), password: PASSWORD, name: 'Nobody' };
    expect((await call('POST', '/api/v2/my-account', { token: await customerToken(), body })).status).toBe(401);
    const withoutPermission = await call('POST', '/api/v2/my-account', {
      token: await adminToken(PERMISSIONS.filter((permission) => permission !== 'customers:manage')),
      body,
    });
    expect(withoutPermission.status).toBe(403);
    expect(await cognitoHasUser(body.email)).toBe(false);
  });
});
