import { createHash } from 'node:crypto';
import * as z from '../../schema.ts';

/**
 * A customer: an account of the customer portal, signed in through the customers' own
 * Cognito pool (`cognitoSub` links the two) and verified by the service's own mailed
 * token. The record is the service's; Cognito holds only the login and the password. The record is the answer
 * (`CustomerResource`, below) with its Cognito link and session version.
 */
export interface Customer extends CustomerResource {
  cognitoSub: string;
  /** Cognito's user name (a UUID in a pool that signs in by email). */
  cognitoUsername: string;
  /** Raised to end every token issued before (identity/data/session-versions.ts); absent = 0. */
  sessionVersion?: number;
}

/** A new account's record: the Cognito link, the login and the name; no addresses yet, nothing pending. */
export function newCustomerRecord(
  fields: Pick<Customer, 'id' | 'cognitoSub' | 'cognitoUsername' | 'emailAddress' | 'name' | 'emailVerified'>,
  stamp: string,
): Customer {
  return {
    ...fields,
    accountNumber: null,
    primary: null,
    billing: null,
    useInternationalShippingAddress: false,
    useInternationalBillingAddress: false,
    pendingEmailAddress: null,
    created: stamp,
    updated: stamp,
  };
}

export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 200;
export const ADDRESS_MAX_LENGTH = 500;
export const ACCOUNT_NUMBER_MAX_LENGTH = 100;
/** Cognito enforces its own policy on top (the pool's, like the administrators'). */
export const CUSTOMER_PASSWORD_MIN_LENGTH = 12;
export const CUSTOMER_PASSWORD_MAX_LENGTH = 256;
/** A verification link works for 48 hours (checked on use; the TTL only tidies up). */
export const VERIFICATION_TTL_SECONDS = 48 * 60 * 60;

export const normalisedEmail = (email: string): string => email.trim().toLowerCase();

const email = z.lazy(() => z.email().check(z.maxLength(EMAIL_MAX_LENGTH)));
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

/** `POST /my-account` (spec: email, password, name). */
export const NewCustomerInput = z.strictObject({
  email,
  password: text(CUSTOMER_PASSWORD_MIN_LENGTH, CUSTOMER_PASSWORD_MAX_LENGTH),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(NAME_MAX_LENGTH)),
});
export type NewCustomerInput = z.infer<typeof NewCustomerInput>;

/**
 * `PATCH /my-account` (spec's update body). Every field optional, at least one given;
 * `accountNumber`, `primary` and `billing` may be null to clear them. A changed
 * `emailAddress` is not applied: it becomes the pending address until verified.
 */
export const AccountUpdate = z.lazy(() =>
  z
    .strictObject({
      accountNumber: z.optional(z.nullable(text(0, ACCOUNT_NUMBER_MAX_LENGTH))),
      emailAddress: z.optional(email),
      useInternationalShippingAddress: z.optional(z.boolean()),
      useInternationalBillingAddress: z.optional(z.boolean()),
      primary: z.optional(z.nullable(text(0, ADDRESS_MAX_LENGTH))),
      billing: z.optional(z.nullable(text(0, ADDRESS_MAX_LENGTH))),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')),
);
export type AccountUpdate = z.infer<typeof AccountUpdate>;

/** The record after an update, and the address to verify when the update asks for a new one. */
export interface UpdateOutcome {
  customer: Customer;
  verifyAddress?: string;
}

/**
 * Applies an update. A new `emailAddress` becomes `pendingEmailAddress` (the login stays
 * until the new address is verified); asking for the current address again withdraws a
 * pending change.
 */
export function applyAccountUpdate(customer: Customer, update: AccountUpdate, stamp: string): UpdateOutcome {
  const { emailAddress, ...fields } = update;
  const next: Customer = { ...customer, ...fields, updated: stamp };
  if (emailAddress === undefined) return { customer: next };
  const address = normalisedEmail(emailAddress);
  if (address === customer.emailAddress) return { customer: { ...next, pendingEmailAddress: null } };
  return { customer: { ...next, pendingEmailAddress: address }, verifyAddress: address };
}

/** A stored verification token: for one customer and one address, until `expiresAt` (epoch seconds). */
export interface EmailVerification {
  customerId: number;
  address: string;
  expiresAt: number;
}

/**
 * What a verification token does for the customer who signed in with it: confirm the
 * current address (`confirm`), switch the login to the pending one (`switch`), or
 * nothing, because it is someone else's, expired, or for an address that is neither.
 */
export type VerificationEffect = 'confirm' | 'switch' | 'invalid';

export function verificationEffect(
  customer: Customer,
  token: EmailVerification | undefined,
  nowSeconds: number,
): VerificationEffect {
  if (!token || token.customerId !== customer.id || token.expiresAt <= nowSeconds) return 'invalid';
  if (token.address === customer.pendingEmailAddress) return 'switch';
  if (token.address === customer.emailAddress && !customer.emailVerified) return 'confirm';
  return 'invalid';
}

/** Tokens are stored only as this hash: a leaked table does not leak usable links. */
export const hashVerificationToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The customer as the `/my-account` routes answer it (login, create, get, update): the
 * record without its Cognito link (`cognitoSub`, `cognitoUsername`) and table keys. Here,
 * beside the request schemas, because the use cases build it; nothing parses answers per request.
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

const loginText = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** `PUT /my-account`'s body: the login, its password and, from a verification link, its token. */
export const CustomerLoginBody = z.lazy(() =>
  z.strictObject({
    login: loginText(254),
    password: loginText(256),
    /** The token of a verification link (PORTAL_URL/verify-email#token=…). */
    emailVerificationToken: z.optional(loginText(128)),
  }),
);

/** `PUT /my-account`: the service's token (also set as the auth cookie) and the account. */
export const CustomerSignIn = z.lazy(() =>
  z.strictObject({
    token: z
      .string()
      .check(
        z.describe("The service's customer JWT: send it as `Authorization: Bearer <token>` (or rely on the cookie)."),
      ),
    expiresIn: z.int().check(z.describe('Seconds until the token expires.')),
    expiresAt: z
      .int()
      .check(
        z.describe(
          'When the token expires: epoch seconds (its `exp` claim), as in the admin login and refresh answers.',
        ),
      ),
    tokenType: z.literal('Bearer'),
    customer: CustomerResource,
  }),
);

/** A customer's sign-in as the login's use case makes it: the answer but its `tokenType`, which the route adds. */
export type CustomerSession = Omit<z.output<typeof CustomerSignIn>, 'tokenType'>;
