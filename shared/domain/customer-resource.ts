import * as z from '../schema.ts';
import type { Customer } from './customer.ts';

/**
 * The customer as the `/my-account` routes answer it (login, create, get, update): the
 * record without its Cognito link (`cognitoSub`, `cognitoUsername`) and table keys.
 * A sibling of customer.ts; nothing parses answers per request.
 */
export const CustomerResource = z.strictObject({
  id: z.int(),
  emailAddress: z
    .string()
    .check(z.describe('The login (lower-cased). A change waits in `pendingEmailAddress` until verified.')),
  name: z.string(),
  accountNumber: z.nullable(z.string()),
  primary: z.nullable(z.string()).check(z.describe('The primary (shipping) address, as text.')),
  billing: z.nullable(z.string()).check(z.describe('The billing address, as text.')),
  useInternationalShippingAddress: z.boolean(),
  useInternationalBillingAddress: z.boolean(),
  emailVerified: z
    .boolean()
    .check(
      z.describe('Whether the address was confirmed through the link mailed at account creation; login needs it.'),
    ),
  pendingEmailAddress: z
    .nullable(z.string())
    .check(
      z.describe(
        'An address asked for by PATCH: it becomes the login when the customer logs in with the token mailed to it.',
      ),
    ),
  /** ISO-8601 UTC. */
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type CustomerResource = z.output<typeof CustomerResource>;

// DynamoDB keeps no attribute order: answer the fields in a stable, readable one.
export const toCustomerResource = (customer: Customer): CustomerResource => ({
  id: customer.id,
  emailAddress: customer.emailAddress,
  name: customer.name,
  accountNumber: customer.accountNumber,
  primary: customer.primary,
  billing: customer.billing,
  useInternationalShippingAddress: customer.useInternationalShippingAddress,
  useInternationalBillingAddress: customer.useInternationalBillingAddress,
  emailVerified: customer.emailVerified,
  pendingEmailAddress: customer.pendingEmailAddress,
  created: customer.created,
  updated: customer.updated,
});

/** `PUT /my-account`: the service's token (also set as the auth cookie) and the account. */
export const CustomerSignIn = z.strictObject({
  token: z
    .string()
    .check(
      z.describe("The service's customer JWT: send it as `Authorization: Bearer <token>` (or rely on the cookie)."),
    ),
  expiresIn: z.int().check(z.describe('Seconds until the token expires.')),
  expiresAt: z
    .int()
    .check(
      z.describe('When the token expires: epoch seconds (its `exp` claim), as in the admin login and refresh answers.'),
    ),
  tokenType: z.literal('Bearer'),
  customer: CustomerResource,
});

true satisfies z.Same<CustomerResource, Omit<Customer, 'cognitoSub' | 'cognitoUsername' | 'sessionVersion'>>;
true satisfies z.Same<
  keyof CustomerResource,
  keyof Omit<Customer, 'cognitoSub' | 'cognitoUsername' | 'sessionVersion'>
>;
