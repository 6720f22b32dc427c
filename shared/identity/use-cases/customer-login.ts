import { issueSessionToken } from '../services/token-issuer.ts';
import { TOKEN_TTL_SECONDS } from '../../auth/tokens.ts';
import { epochSeconds, now } from '../../clock.ts';
import { confirmEmail, findCustomerBySub, holderOfEmail, switchEmail } from '../data/customers.ts';
import { findVerification } from '../data/email-verifications.ts';
import { hashVerificationToken, normalisedEmail, verificationEffect, type Customer } from '../domain/customer.ts';
import { toCustomerResource, type CustomerLoginBody, type CustomerSession } from '../domain/customer.ts';
import type * as z from '../../schema.ts';
import { AppError, Conflict, Forbidden, Unauthenticated, ValidationError } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { recordFailedLogin } from '../../services/metrics.ts';
import { changeOwnEmail, customerAppClient, signInWithPassword } from '../services/customer-identity.ts';
import { guardLogin } from './login-guard.ts';

// Read at module load: a function without the customer pool's settings fails its cold start.
const client = customerAppClient();

/** The route's body, and the caller's address (client-address.ts) for the per-client limit. */
export type CustomerLogin = z.output<typeof CustomerLoginBody> & { client: string };

const wrongLogin = () => new Unauthenticated('The login or password is wrong.');
const badToken = () =>
  new ValidationError('The verification link is invalid, expired or already used.', [
    {
      path: 'body.emailVerificationToken',
      message: 'Invalid, expired or already used; sign in and ask for a new link.',
    },
  ]);
const emailTaken = (address: string) =>
  new Conflict(`The address ${address} belongs to another account.`, 'email_taken');

/**
 * `PUT /my-account`: Cognito checks the password (InitiateAuth), the service answers its
 * own customer token. Failures are limited per login string and per client address
 * (login-guard.ts), checked before Cognito is asked, for unknown logins exactly as for
 * known ones; a wrong password and an unknown login give the same 401. Cost without a
 * token: the limits' reservations (login-guard.ts: one GetItem, two UpdateItems), one Cognito call, one Query (the record by `sub`).
 */
export async function loginCustomer(attempt: CustomerLogin): Promise<CustomerSession> {
  try {
    return await attemptLogin(attempt);
  } catch (error) {
    // Every refusal (401, 403, 409, 429, 400 on a bad link) counts; a 500 is an outage, not a failed login.
    if (error instanceof AppError)
      recordFailedLogin('customer', String(error.details.error ?? error.details.reason ?? error.kind));
    throw error;
  }
}

async function attemptLogin({
  login,
  password,
  emailVerificationToken,
  client: address,
}: CustomerLogin): Promise<CustomerSession> {
  const subject = normalisedEmail(login);
  const guard = await guardLogin('customer', subject, address);

  const signIn = await signInWithPassword(client, subject, password);
  // A Cognito user without a record (a failed creation's leftover) is no account.
  let customer = signIn ? await findCustomerBySub(signIn.sub) : undefined;
  if (!signIn || !customer) {
    await guard.failed('wrong_credentials');
    throw wrongLogin();
  }
  await guard.succeeded();

  if (emailVerificationToken !== undefined)
    customer = await applyToken(customer, emailVerificationToken, signIn.accessToken);
  if (!customer.emailVerified) {
    throw new Forbidden('Confirm your email address first: open the link mailed to you when the account was created.', {
      error: 'email_not_verified',
    });
  }
  const { token, expiresAt } = await issueSessionToken({
    kind: 'customer',
    id: customer.id,
    email: customer.emailAddress,
    authTime: epochSeconds(),
    sessionVersion: customer.sessionVersion ?? 0,
  });
  return { token, expiresIn: TOKEN_TTL_SECONDS, expiresAt, customer: toCustomerResource(customer) };
}

/** Spends a verification token of the signed-in customer: confirms the address, or switches the login to the pending one. */
async function applyToken(customer: Customer, token: string, accessToken: string): Promise<Customer> {
  const tokenHash = hashVerificationToken(token);
  const stored = await findVerification(tokenHash);
  const effect = verificationEffect(customer, stored, epochSeconds());
  const stamp = now().toISOString();
  if (effect === 'invalid') throw badToken();
  if (effect === 'confirm') {
    if ((await confirmEmail(customer, tokenHash, stamp)) !== 'done') throw badToken();
    return { ...customer, emailVerified: true, updated: stamp };
  }

  const address = stored!.address;
  const holder = await holderOfEmail(address);
  if (holder !== undefined && holder !== customer.id) throw emailTaken(address);
  // Cognito first (the login), then the record; if the record's transaction fails, Cognito goes back.
  await changeOwnEmail(accessToken, address);
  let outcome: Awaited<ReturnType<typeof switchEmail>>;
  try {
    outcome = await switchEmail(customer, address, tokenHash, stamp);
  } catch (error) {
    await revertCognitoEmail(accessToken, customer);
    throw error;
  }
  if (outcome !== 'done') {
    await revertCognitoEmail(accessToken, customer);
    throw outcome === 'email-taken' ? emailTaken(address) : badToken();
  }
  return { ...customer, emailAddress: address, pendingEmailAddress: null, emailVerified: true, updated: stamp };
}

async function revertCognitoEmail(accessToken: string, customer: Customer): Promise<void> {
  try {
    await changeOwnEmail(accessToken, customer.emailAddress);
  } catch (error) {
    // Left for an operator: Cognito's login is the new address while the record keeps the old one.
    logger.error('Compensation failed: the Cognito login of a customer differs from the record', {
      customerId: customer.id,
      error: error as Error,
    });
  }
}
