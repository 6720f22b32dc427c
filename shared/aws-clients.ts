import type { MiddlewareStack } from '@smithy/types';
import * as z from './schema.ts';
import { requireSection } from './config.ts';
import { DependencyUnavailable, type DependencyKind } from './errors.ts';

/**
 * How every AWS SDK client of the service retries and times out, in one table (README
 * "Faults and retries"), and the one place that turns an outage into a 503.
 *
 * Retries are the SDK's own standard mode: throttling, 5xx, timeouts and connection
 * resets are retried with full-jitter exponential backoff (base 100 ms, 500 ms when
 * throttled), drawing on the client's retry quota (500 tokens per container, 5 per retry,
 * 10 per retried timeout), so a dependency that is down is not hammered. `requestTimeout`
 * bounds one attempt from request to response headers (`throwOnRequestTimeout`: without it
 * the handler only logs a warning); the worst case of one call, maxAttempts × (timeout +
 * backoff), stays inside the 10 s function timeout (infra/route-function.ts).
 *
 * Imports no SDK package: every function bundles this, whatever clients its route uses.
 */
export interface ClientSettings {
  maxAttempts: number;
  /** Milliseconds to open a connection. */
  connectionTimeout: number;
  /** Milliseconds one attempt may take until the response starts. */
  requestTimeout: number;
  /** What the 503 tells the client to wait. */
  retryAfterSeconds: number;
}

export const CLIENT_SETTINGS: Record<DependencyKind, ClientSettings> = {
  // Single-digit milliseconds when healthy; three attempts of 2 s at most.
  database: { maxAttempts: 3, connectionTimeout: 1_000, requestTimeout: 2_000, retryAfterSeconds: 2 },
  // A photo upload is up to 5 MiB from inside AWS.
  'file storage': { maxAttempts: 3, connectionTimeout: 1_000, requestTimeout: 4_000, retryAfterSeconds: 5 },
  // Two attempts: SendEmail is not idempotent, and a timed-out send may have left (one duplicate at most).
  email: { maxAttempts: 2, connectionTimeout: 1_000, requestTimeout: 3_000, retryAfterSeconds: 10 },
  // Two attempts: AdminCreateUser retried after a timeout may meet its own user (README).
  'identity provider': { maxAttempts: 2, connectionTimeout: 1_000, requestTimeout: 3_000, retryAfterSeconds: 5 },
  // Read once per container, at the first token it signs.
  secrets: { maxAttempts: 3, connectionTimeout: 1_000, requestTimeout: 3_000, retryAfterSeconds: 5 },
  // Stripe (not an AWS client: shared/selling/services/payments.ts sets the SDK's maxNetworkRetries and timeout from it).
  // Two attempts of 3 s, the retry with the same Idempotency-Key, so it cannot charge or refund twice.
  'payment processor': { maxAttempts: 2, connectionTimeout: 1_000, requestTimeout: 3_000, retryAfterSeconds: 5 },
};

/**
 * DEPENDENCY_TIMEOUT_SCALE multiplies both timeouts; unset (1) in AWS. The local stand-ins
 * set 10 (bin/local/services.ts): there one process serves every route at once, requests
 * queue for a client's 50 sockets, and the timers count the queueing, which a Lambda
 * serving one request at a time never does. Tests that want a timeout set it on the live
 * client (test/support/faults.ts `slowCalls`).
 */
const { DEPENDENCY_TIMEOUT_SCALE: scale } = requireSection(
  'dependency timeouts',
  z.object({
    DEPENDENCY_TIMEOUT_SCALE: z._default(
      z.pipe(z.pipe(z.string(), z.transform(Number)), z.number().check(z.positive(), z.lte(100))),
      1,
    ),
  }),
);

/** One attempt's timeout for a client that is not an AWS SDK client (the Stripe SDK), scaled like the others. */
export const attemptTimeout = (dependency: DependencyKind): number =>
  CLIENT_SETTINGS[dependency].requestTimeout * scale;

/** The constructor options of a client for `dependency` (spread into `new XClient({...})`). */
export function clientOptions(dependency: DependencyKind) {
  const { maxAttempts, connectionTimeout, requestTimeout } = CLIENT_SETTINGS[dependency];
  return {
    maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: connectionTimeout * scale,
      requestTimeout: requestTimeout * scale,
      throwOnRequestTimeout: true,
    },
  } as const;
}

// Throttling by name (the SDK's list without LimitExceededException, which Cognito uses
// for a per-user quota that the services answer as 429), timeouts and network failures.
const THROTTLED = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
  'BandwidthLimitExceeded',
  'TransactionInProgressException',
  'TransactionConflictException',
]);
const TIMED_OUT = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Whether an SDK error means the dependency is unavailable (not that it answered no). */
export function isOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $retryable, $metadata } = error as {
    name?: string;
    code?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (name === 'AbortError' || name === 'LimitExceededException') return false;
  const status = $metadata?.httpStatusCode ?? 0;
  return (
    $retryable !== undefined ||
    status >= 500 ||
    status === 429 ||
    THROTTLED.has(name ?? '') ||
    TIMED_OUT.has(name ?? '') ||
    NETWORK.has(code ?? '')
  );
}

/** Any SDK client: what installing a middleware needs of it. */
interface MiddlewareClient {
  middlewareStack: Pick<MiddlewareStack<object, object>, 'add'>;
}

/**
 * The SDK's logger middleware taken off a client: no client here is given a logger, yet the middleware still copies
 * every call's input and output through the model's sensitive-data filter before handing them to its no-op logger,
 * about a twentieth of the API's CPU in an on-sale rush of small DynamoDB calls (bin/load/README.md "Figures").
 */
export function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/**
 * Installs the outage mapping on a client, outside the SDK's retries: what still fails
 * after them as an outage becomes DependencyUnavailable (503 + Retry-After); every other
 * error (a condition failure, a refusal) reaches the caller as the SDK threw it.
 */
export function answeringOutages<T extends MiddlewareClient>(client: T, dependency: DependencyKind): T {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isOutage(error))
          throw new DependencyUnavailable(dependency, CLIENT_SETTINGS[dependency].retryAfterSeconds, { cause: error });
        throw error;
      }
    },
    { step: 'initialize', name: 'dependencyOutage', priority: 'high' },
  );
  return client;
}
