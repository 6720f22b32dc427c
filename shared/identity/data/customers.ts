import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { now } from '../../clock.ts';
import type { Customer } from '../domain/customer.ts';
import { Conflict } from '../../errors.ts';
import * as z from '../../schema.ts';
import { db, findOneByIndex, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { verificationPut, verificationSpend } from './email-verifications.ts';
import { keys } from '../../data/keys.ts';
import { keyAttributes, type Partition } from '../../data/key-conditions.ts';

/**
 * Customers (the portal's accounts). One item each, `CUSTOMER#<id>` / `CUSTOMER`; GSI1
 * finds one by Cognito `sub` (every login), GSI2 by email; the item
 * `UNIQUE#CUSTOMER_EMAIL#<email>`, written and moved in the same transactions as the
 * record's address, keeps logins unique (GSI2 alone cannot: indexes are not conditions).
 */
/**
 * The record as stored: the answer's fields (identity/domain/customer.ts `CustomerResource`) with its Cognito link. Written out
 * rather than derived from the answer's schema, which the checkout's bundle (it reads the buyer) does not build;
 * storedSchema holds it to the type, which is derived.
 */
const CustomerItem = storedSchema<Customer>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      emailAddress: z.string(),
      name: z.string(),
      accountNumber: z.nullable(z.string()),
      primary: z.nullable(z.string()),
      billing: z.nullable(z.string()),
      useInternationalShippingAddress: z.boolean(),
      useInternationalBillingAddress: z.boolean(),
      emailVerified: z.boolean(),
      pendingEmailAddress: z.nullable(z.string()),
      created: z.string(),
      updated: z.string(),
      cognitoSub: z.string(),
      cognitoUsername: z.string(),
      sessionVersion: z.optional(z.number()),
    }),
  ),
);
const fromItem = (item: Record<string, unknown>): Customer => parseItem(CustomerItem, item, 'customer');

const toItem = (customer: Customer) => ({
  ...keys.customer(customer.id),
  ...keys.customerIndexes(customer.cognitoSub, customer.emailAddress),
  entity: 'Customer',
  ...customer,
});

export async function getCustomer(id: number): Promise<Customer | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.customer(id) }));
  return Item ? fromItem(Item) : undefined;
}

async function findByIndex(partition: Partition): Promise<Customer | undefined> {
  const item = await findOneByIndex(partition);
  return item ? fromItem(item) : undefined;
}

/** The customer a Cognito user is linked to (one index Query, the whole record projected). */
export const findCustomerBySub = (sub: string) => findByIndex(keys.customerBySub(sub));

/** The customer whose login is this address (an index Query); eventually consistent, so the unique item stays the authority. */
export const findCustomerByEmail = (email: string) => findByIndex(keys.customerByEmail(email));

/** The customer holding an address as login, from its unique item (strongly consistent); undefined when free. */
export async function holderOfEmail(email: string): Promise<number | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.customerEmailUnique(email), ConsistentRead: true }),
  );
  return Item ? Number(Item.customerId) : undefined;
}

const emailTaken = (email: string) => new Conflict(`The address ${email} belongs to another account.`, 'email_taken');

/**
 * One transaction: the unique email item, the record, its ticket count and its verification token (none for an
 * account seeded verified: `null`). Another customer holding the address (even one created a moment ago) is a 409
 * `email_taken`.
 */
export async function insertCustomer(
  customer: Customer,
  verification: { tokenHash: string; ttlSeconds: number } | null,
): Promise<void> {
  try {
    await transactWrite([
      labelled('email', {
        Put: {
          TableName: tableName(),
          Item: { ...keys.customerEmailUnique(customer.emailAddress), customerId: customer.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
      { Put: { TableName: tableName(), Item: toItem(customer), ConditionExpression: 'attribute_not_exists(PK)' } },
      // No tickets yet: the count holds every one from the start.
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.customerTicketCount(customer.id), entity: 'CustomerTicketCount', n: 0 },
        },
      },
      ...(verification
        ? [verificationPut(verification.tokenHash, customer.id, customer.emailAddress, verification.ttlSeconds)]
        : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('email'))
      throw emailTaken(customer.emailAddress);
    throw error;
  }
}

/** The fields PATCH may set (never the login: a new address waits in `pendingEmailAddress`). */
const UPDATABLE = [
  'accountNumber',
  'primary',
  'billing',
  'useInternationalShippingAddress',
  'useInternationalBillingAddress',
  'pendingEmailAddress',
  'updated',
] as const satisfies readonly (keyof Customer)[];

function accountUpdate(next: Customer) {
  return {
    TableName: tableName(),
    Key: keys.customer(next.id),
    // SET of these fields only: a login switched meanwhile (at a login with a token) is never written back.
    UpdateExpression: `SET ${UPDATABLE.map((field) => `#${field} = :${field}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: Object.fromEntries(UPDATABLE.map((field) => [`#${field}`, field])),
    ExpressionAttributeValues: Object.fromEntries(UPDATABLE.map((field) => [`:${field}`, next[field]])),
  };
}

/**
 * Writes an account update; with `verification`, one transaction that also stores the
 * token for the pending address. Answers the record as written.
 */
export async function saveAccountUpdate(
  next: Customer,
  verification?: { tokenHash: string; address: string; ttlSeconds: number },
): Promise<Customer> {
  if (!verification) {
    const { Attributes } = await db.send(new UpdateCommand({ ...accountUpdate(next), ReturnValues: 'ALL_NEW' }));
    return fromItem(Attributes!);
  }
  await transactWrite([
    { Update: accountUpdate(next) },
    verificationPut(verification.tokenHash, next.id, verification.address, verification.ttlSeconds),
  ]);
  return next;
}

export type VerificationOutcome = 'done' | 'token-spent' | 'email-taken';

/** Spends a token on the customer's current address: the record becomes verified, in one transaction. */
export async function confirmEmail(customer: Customer, tokenHash: string, stamp: string): Promise<VerificationOutcome> {
  try {
    await transactWrite([
      labelled('token', verificationSpend(tokenHash, customer.id, customer.emailAddress)),
      // The address the token was sent to changed meanwhile: the token is as good as spent.
      labelled('token', {
        Update: {
          TableName: tableName(),
          Key: keys.customer(customer.id),
          UpdateExpression: 'SET emailVerified = :true, updated = :now',
          ConditionExpression: 'emailAddress = :address',
          ExpressionAttributeValues: { ':true': true, ':now': stamp, ':address': customer.emailAddress },
        },
      }),
    ]);
    return 'done';
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('token')) return 'token-spent';
    throw error;
  }
}

/**
 * Spends a token on the pending address and makes it the login, in one transaction: the
 * record (only if that address is still the pending one), the old unique item out (only
 * if it is this customer's), the new one in (only if nobody holds it).
 */
export async function switchEmail(
  customer: Customer,
  address: string,
  tokenHash: string,
  stamp: string,
): Promise<VerificationOutcome> {
  const byEmail = keys.customerByEmail(address);
  try {
    await transactWrite([
      verificationSpend(tokenHash, customer.id, address),
      {
        Update: {
          TableName: tableName(),
          Key: keys.customer(customer.id),
          UpdateExpression:
            'SET emailAddress = :address, pendingEmailAddress = :null, emailVerified = :true, #byEmail = :byEmail, updated = :now',
          ConditionExpression: 'pendingEmailAddress = :address AND emailAddress = :old',
          ExpressionAttributeNames: { '#byEmail': keyAttributes(byEmail).partition },
          ExpressionAttributeValues: {
            ':address': address,
            ':old': customer.emailAddress,
            ':null': null,
            ':true': true,
            ':byEmail': byEmail.value,
            ':now': stamp,
          },
        },
      },
      {
        Delete: {
          TableName: tableName(),
          Key: keys.customerEmailUnique(customer.emailAddress),
          ConditionExpression: 'customerId = :id',
          ExpressionAttributeValues: { ':id': customer.id },
        },
      },
      labelled('new email', {
        Put: {
          TableName: tableName(),
          Item: { ...keys.customerEmailUnique(address), customerId: customer.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
    ]);
    return 'done';
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.conditionFailed('new email')) return 'email-taken';
    if (error.anyConditionFailed) return 'token-spent';
    throw error;
  }
}

/** Marks a customer verified without a token: demo seeding only (see use-cases/customers). */
export async function markEmailVerified(id: number): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.customer(id),
        UpdateExpression: 'SET emailVerified = :true, updated = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':true': true, ':now': now().toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
