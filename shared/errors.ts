/**
 * The project's own error types, thrown by any layer (domain rules, use cases,
 * repositories, services). They say what went wrong in the domain's words; only
 * `shared/http/problem-details.ts` knows which HTTP status and problem type each one
 * becomes. Anything else thrown is a bug: a 500 that shows only the request id.
 */
export interface FieldProblem {
  /** Where the problem is: `body.name`, `query._limit`, `path.id`. */
  path: string;
  message: string;
}

export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'unprocessable'
  | 'unavailable';

export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;

  constructor(
    message: string,
    /** Members the client sees beside the message (e.g. `reason`, `error`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule; `errors` names each field. */
export class ValidationError extends AppError {
  readonly kind = 'validation';
  constructor(
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message, errors.length ? { errors } : {});
  }
}

/** No identity, or one that cannot be trusted (bad or expired token, account gone). */
export class Unauthenticated extends AppError {
  readonly kind = 'unauthenticated';
  constructor(message = 'A valid token is required.') {
    super(message);
  }
}

/** The caller is known but may not do this. */
export class Forbidden extends AppError {
  readonly kind = 'forbidden';
}

export class NotFound extends AppError {
  readonly kind = 'not-found';
  constructor(what: string, id?: string | number) {
    super(id === undefined ? `${what} not found.` : `${what} ${id} not found.`);
  }
}

/** The request meets the current state of things and loses: `reason` is a stable code clients branch on. */
export class Conflict extends AppError {
  readonly kind = 'conflict';
  constructor(
    message: string,
    readonly reason: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { reason, ...details });
  }
}

/**
 * A write kept losing races with other writers of the same item, each between its read and its conditional write:
 * nothing was written; the client may repeat the request (data/read-decide-write.ts, the one retry policy).
 */
export class ConcurrentUpdate extends Conflict {
  constructor(message: string) {
    super(message, 'concurrent_update');
  }
}

/** The same request is still being processed (an `Idempotency-Key` in flight): try again after `retryAfterSeconds`. */
export class InFlight extends Conflict {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 'request_in_flight');
  }
}

/** Well-formed, but cannot be processed as asked (an `Idempotency-Key` reused for a different request). */
export class Unprocessable extends AppError {
  readonly kind = 'unprocessable';
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message, { reason });
  }
}

export class TooLarge extends AppError {
  readonly kind = 'too-large';
}

export class UnsupportedMediaType extends AppError {
  readonly kind = 'unsupported-media-type';
}

/** Too many attempts for now; try again after `retryAfterSeconds`. */
export class RateLimited extends AppError {
  readonly kind = 'rate-limited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** What the service depends on, as a client may be told (never a table, bucket or endpoint name). */
export type DependencyKind =
  | 'database'
  | 'file storage'
  | 'email'
  | 'identity provider'
  | 'secrets'
  | 'payment processor';

/**
 * A dependency is throttling, failing (5xx) or too slow, and the SDK's retries are spent
 * (README "Faults and retries"): a 503 with `Retry-After`, whatever the route. The
 * client may repeat the request after `retryAfterSeconds`; the README says what each
 * route that writes to two dependencies leaves behind.
 */
export class DependencyUnavailable extends AppError {
  readonly kind = 'unavailable';
  constructor(
    readonly dependency: DependencyKind,
    readonly retryAfterSeconds: number,
    options: { cause?: unknown } = {},
  ) {
    super(`The ${dependency} is not answering for now; try again in ${retryAfterSeconds} seconds.`, { dependency });
    if (options.cause !== undefined) this.cause = options.cause;
  }
}
