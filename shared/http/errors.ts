/**
 * Typed errors. Domain and data code throw these; one middleware (`problem-details.ts`)
 * turns them into RFC 9457 `application/problem+json` answers. Anything else thrown is
 * a bug and becomes a 500 that shows only the request id.
 */
export interface FieldProblem {
  /** Where the problem is: `body.name`, `query._limit`, `path.id`. */
  path: string;
  message: string;
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    /** Short, stable slug: the problem `type` is `/problems/<slug>`. */
    readonly slug: string,
    readonly title: string,
    detail: string,
    /** Extension members added to the problem object (e.g. `reason`, `error`). */
    readonly extensions: Record<string, unknown> = {},
    /** Extra response headers (e.g. `Retry-After`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpProblem {
  constructor(detail: string, readonly errors: FieldProblem[] = []) {
    super(400, 'validation', 'Invalid request', detail, errors.length ? { errors } : {});
  }
}

export class Unauthorized extends HttpProblem {
  constructor(detail = 'A valid token is required.') {
    super(401, 'unauthorized', 'Unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
}

export class Forbidden extends HttpProblem {
  constructor(detail: string, extensions: Record<string, unknown> = {}) {
    super(403, 'forbidden', 'Forbidden', detail, extensions);
  }
}

export class NotFound extends HttpProblem {
  constructor(what: string, id?: string | number) {
    super(404, 'not-found', 'Not found', id === undefined ? `${what} not found.` : `${what} ${id} not found.`);
  }
}

export class Conflict extends HttpProblem {
  constructor(detail: string, extensions: Record<string, unknown> = {}) {
    super(409, 'conflict', 'Conflict', detail, extensions);
  }
}

export class PayloadTooLarge extends HttpProblem {
  constructor(detail: string) {
    super(413, 'payload-too-large', 'Payload too large', detail);
  }
}

export class UnsupportedMediaType extends HttpProblem {
  constructor(detail: string) {
    super(415, 'unsupported-media-type', 'Unsupported media type', detail);
  }
}

export class TooManyRequests extends HttpProblem {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests', detail, {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}
