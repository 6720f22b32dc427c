import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findCustomerByEmail, insertCustomer, markEmailVerified } from '../data/customers.ts';
import {
  newCustomerRecord,
  normalisedEmail,
  VERIFICATION_TTL_SECONDS,
  type Customer,
  type NewCustomerInput,
} from '../domain/customer.ts';
import { toCustomerResource, type CustomerResource } from '../domain/customer.ts';
import { actorLabel, type Actor } from '../../tickets/domain/ticket-history.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { customerAppClient } from '../services/customer-identity.ts';
import { userAdmin } from '../services/user-admin.ts';
import { newVerificationToken, sendVerificationMail } from './verification-mail.ts';

// Read at module load: a function without the customer pool's settings fails its cold start.
const users = userAdmin({ userPoolId: customerAppClient().userPoolId });

export const CUSTOMER_SEQUENCE = 'CUSTOMER';

/**
 * Creates a customer account (`POST /my-account`, an administrator with
 * `customers:manage`): a cheap check that no customer has the address (GSI2), saving a
 * Cognito call, then `openAccount`, then the verification mail (PORTAL_URL/verify-email#token=…).
 */
export async function createCustomer(input: NewCustomerInput, actor: Actor): Promise<CustomerResource> {
  const email = normalisedEmail(input.email);
  if (await findCustomerByEmail(email))
    throw new Conflict(`The address ${email} belongs to another account.`, 'email_taken');
  const { customer, token } = await openAccount({ ...input, email });
  logger.info('Customer created', { customerId: customer.id, by: actorLabel(actor) });
  await sendVerificationMail(email, token, 'new-account', customer.id);
  return toCustomerResource(customer);
}

/**
 * The account itself, for an address already normalised, in an order that leaves neither
 * side without the other (the admin creation and the public sign-up):
 * 1. the Cognito user (permanent password, unverified; Cognito refuses an address it
 *    already has: 409 `email_taken`, nothing written);
 * 2. one transaction: the unique email item (the authority), the record and the
 *    verification token; if it fails for any reason the Cognito user is deleted again.
 * Answers the record and the verification token to mail.
 */
export async function openAccount(input: NewCustomerInput): Promise<{ customer: Customer; token: string }> {
  const email = input.email;
  // Before Cognito: an id lost to a failure later is harmless, a Cognito user left behind is not.
  const id = await allocateIds(CUSTOMER_SEQUENCE);
  const user = await users.createUser(email, input.name, input.password);
  const customer = newCustomerRecord(
    {
      id,
      cognitoSub: user.sub,
      cognitoUsername: user.username,
      emailAddress: email,
      name: input.name,
      emailVerified: false,
    },
    now().toISOString(),
  );
  const { token, tokenHash } = newVerificationToken();
  try {
    await insertCustomer(customer, { tokenHash, ttlSeconds: VERIFICATION_TTL_SECONDS });
  } catch (error) {
    await removeCognitoUser(user.username, id);
    throw error;
  }
  return { customer, token };
}

/** Compensation: a Cognito user without a record could sign in to nothing and would block its address. */
async function removeCognitoUser(username: string, customerId: number): Promise<void> {
  try {
    await users.deleteUser(username);
  } catch (error) {
    // Left for an operator: the address stays refused by Cognito until this user is deleted.
    logger.error('Compensation failed: a Cognito customer user without a record is left behind', {
      username,
      customerId,
      error: error as Error,
    });
  }
}

/**
 * Marks a customer verified without the mailed token. For seeding demo data only (no
 * route calls it): every real account is verified by its owner through the link.
 */
export async function verifyCustomerEmailForSeed(customerId: number): Promise<void> {
  if (!(await markEmailVerified(customerId))) throw new Error(`No customer ${customerId} to verify.`);
}
