import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { call, type CallResult } from './api.ts';
import { newAddress, newestLinkToken } from './mail.ts';
import { adminToken } from './tokens.ts';

/** Customers in the tests: accounts made and signed in through the API (their mail: mail.ts). */
export const PASSWORD = 'a-customer-password-123';

/** The token of the newest verification link mailed to an address. */
export const verificationTokenFor = (address: string): Promise<string> => newestLinkToken(address, 'verify-email');

/** A customer id nobody else in the run uses, without an account: enough for orders and customer tokens. */
export const unusedCustomerId = () => 7_000_000 + randomInt(0, 1_000_000_000);

export const createAccount = async (body: { email: string; password: string; name: string }): Promise<CallResult> =>
  call('POST', '/api/v2/my-account', { token: await adminToken(['customers:manage']), body });

/** PUT /my-account; from a random client address unless `sourceIp` names one (the login limits count per account and network). */
export const login = (
  loginName: string,
  password: string,
  emailVerificationToken?: string,
  sourceIp?: string,
): Promise<CallResult> =>
  call('PUT', '/api/v2/my-account', {
    body: { login: loginName, password, ...(emailVerificationToken ? { emailVerificationToken } : {}) },
    ...(sourceIp ? { sourceIp } : {}),
  });

export interface TestCustomer {
  id: number;
  email: string;
  token: string;
}

/** A created account, optionally verified through its mailed link and signed in. */
export async function newCustomer(): Promise<{ id: number; email: string }> {
  const email = newAddress();
  const created = await createAccount({ email, password: PASSWORD, name: 'Casey Customer' });
  expect(created.status, created.raw).toBe(201);
  return { id: created.body.data.id, email };
}

/** A verified customer, signed in: its service token. */
export async function signedInCustomer(): Promise<TestCustomer> {
  const { id, email } = await newCustomer();
  const response = await login(email, PASSWORD, await verificationTokenFor(email));
  expect(response.status, response.raw).toBe(200);
  return { id, email, token: response.body.data.token };
}
