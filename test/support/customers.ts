import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, type CallResult } from './api.ts';
import { adminToken } from './tokens.ts';

/** Helpers of the /my-account tests: accounts made through the API, the mail read back from the SES stand-in. */
export const PASSWORD = 'a-customer-password-123';

/** A fresh address nobody else in the run uses. */
export const newAddress = (label = 'customer') => `${label}-${randomUUID()}@test.local`;

export interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

/** The mail aws-ses-v2-local received for an address, oldest first. */
export async function mailTo(address: string): Promise<StoredEmail[]> {
  const { emails } = (await (await fetch(`${process.env.SES_STORE_URL}/store`)).json()) as { emails: StoredEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

/** The token of the newest verification link mailed to an address. */
export async function verificationTokenFor(address: string): Promise<string> {
  const mail = (await mailTo(address)).at(-1);
  const match = /\/verify-email#token=([A-Za-z0-9_-]+)/.exec(mail?.body.text ?? '');
  if (!match) throw new Error(`no verification link in the mail to ${address}`);
  return match[1]!;
}

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
