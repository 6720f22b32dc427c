/**
 * The shape of a row of the route table (shared/routes.ts): who may call the route and the AWS
 * resources its function may touch, which infra grants exactly.
 */
import type { Permission } from './auth/permissions.ts';
import type { GlobalIndexName } from './data/table-schema.ts';

/** Who may call a route. */
export type Access =
  /** No token needed: login-type routes only. */
  | { kind: 'public' }
  /**
   * An administrator token; `permission` (when set) must be on it. `signOut`: the logouts,
   * which sign the caller out whatever their token: a missing, expired, revoked or invalid
   * one is answered as signed out (cookie cleared), only a foreign Origin is refused.
   */
  | { kind: 'admin'; permission?: Permission; signOut?: true }
  /** A customer token (my-account area); handlers see only the caller's own data. */
  | { kind: 'customer' };

/**
 * The DynamoDB actions a route's function may call on the table, as IAM names them. IAM has no action for a
 * transaction: TransactWriteItems is authorised by the actions of its parts (PutItem, UpdateItem, DeleteItem,
 * ConditionCheckItem), TransactGetItems by GetItem. No route may Scan: a request path reads by key.
 */
const TABLE_READ_ACTIONS = ['GetItem', 'BatchGetItem', 'Query'] as const;
/** The actions that write (ConditionCheckItem too: it runs only in a transaction that writes). */
export const TABLE_WRITE_ACTIONS = [
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
] as const;
export type TableAction = (typeof TABLE_READ_ACTIONS)[number] | (typeof TABLE_WRITE_ACTIONS)[number];

/** The AWS resources a route's function may touch; infra grants exactly these. */
export interface Uses {
  /**
   * The actions the function calls on the table (`Query`: of the table itself); infra grants exactly these, and
   * test/support/table-grants.ts holds every command a route sends in the integration tests to them.
   */
  table?: readonly TableAction[];
  /** The GSIs the function queries (dynamodb:Query on each, and no other index). */
  indexes?: readonly GlobalIndexName[];
  photos?: boolean;
  email?: boolean;
  /**
   * Cognito, in one of two ways:
   * - `sign-in`: the hosted UI / OIDC endpoints and Cognito's unauthenticated client APIs
   *   (RevokeToken, ForgotPassword, InitiateAuth). No IAM, only the client's settings.
   * - `manage-users`: Cognito's admin APIs on the user pool (AdminCreateUser, ListUsers, ...).
   *   IAM grants on that one pool, plus the client's settings.
   */
  identityProvider?: 'sign-in' | 'manage-users';
  /** The customers' user pool (the portal's accounts), in the same two kinds as `identityProvider`. */
  customerIdentity?: 'sign-in' | 'manage-users';
  /**
   * Issues the service's own tokens (or the signed OIDC state): the private signing key,
   * fetched from Secrets Manager at run time. Every function verifies with the public keys.
   */
  signingKey?: boolean;
  /**
   * Seals or opens webhooks' signing secrets (create, rotate, send): the key in Secrets
   * Manager that keeps them encrypted in the table (shared/webhooks/services/webhook-secret-box.ts).
   */
  webhookSecrets?: boolean;
  /**
   * Calls Stripe (shared/selling/services/payments.ts): GetSecretValue on the stage's Stripe secret
   * (`ticketing/<stage>/stripe`: the secret key and the webhook secret), its name, and the publishable key.
   */
  payments?: boolean;
  /**
   * The partitions the row may write, as IAM `StringLike` patterns of the partition key
   * (`RATE#*`): deployed, its writes carry a `dynamodb:LeadingKeys` condition
   * (infra/route-function.ts). Every public row declares them, so a flaw in a login
   * function cannot write ticket, order or event items;
   * test/integration/public-route-writes.test.ts walks those rows and checks each key written.
   */
  tableWrites?: readonly string[];
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteRow {
  method: HttpMethod;
  /** Path below the `/api/v2` prefix, API Gateway style (`{id}` parameters). */
  path: string;
  /** Module under `functions/`, without extension. */
  handler: string;
  auth: Access;
  uses: Uses;
  /** Deprecated routes answer with `Deprecation` and `Link` headers pointing here. */
  successor?: string;
  /**
   * An unsafe POST a client retry could repeat: honours `Idempotency-Key` (shared/http/idempotency.ts,
   * README "Idempotent retries"). Needs an authenticated caller and the idempotency store's actions
   * (`wrapperTableActions`).
   */
  idempotent?: boolean;
  /**
   * Counts its caller against rate-limit budgets (shared/data/rate-limits.ts, login-throttle.ts):
   * its answers carry `RateLimit-Policy` and `RateLimit` (shared/http/rate-limit-headers.ts), and
   * the OpenAPI document says so on its 2xx and 4xx answers.
   */
  throttled?: true;
}
