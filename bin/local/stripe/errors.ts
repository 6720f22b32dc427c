/**
 * Stripe's error answers: `{error: {type, code?, decline_code?, param?, message, payment_intent?}}` with
 * Stripe's status (400 invalid request, 401 authentication, 402 card error, 404 missing).
 * The SDK turns them into its own classes (StripeCardError, StripeInvalidRequestError, StripeIdempotencyError...).
 */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown> & { type: string; message: string },
  ) {
    super(error.message);
  }
}

/**
 * A request refused before any endpoint began executing (its parameters, its key, its URL): Stripe keeps nothing
 * under its idempotency key, so a retry with the key is a new request (server.ts).
 */
export class RefusedBeforeExecution extends StripeFailure {}

export const invalidParameter = (message: string, extra: Record<string, unknown> = {}) =>
  new RefusedBeforeExecution(400, { type: 'invalid_request_error', message, ...extra });

export const invalidRequest = (message: string, extra: Record<string, unknown> = {}, status = 400) =>
  new StripeFailure(status, { type: 'invalid_request_error', message, ...extra });

export const unrecognizedUrl = (method: string, path: string) =>
  new RefusedBeforeExecution(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}).`,
  });

export const missing = (kind: string, id: string, param = 'id') =>
  invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param }, 404);

export const missingParam = (param: string) =>
  invalidParameter(`Missing required param: ${param}.`, { code: 'parameter_missing', param });

export const unknownParam = (param: string) =>
  invalidParameter(`Received unknown parameter: ${param}`, { code: 'parameter_unknown', param });

export const authentication = (message: string) =>
  new RefusedBeforeExecution(401, { type: 'invalid_request_error', message });

export const idempotencyConflict = (key: string) =>
  new StripeFailure(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });

export const idempotencyOtherEndpoint = (key: string, first: string, now: string) =>
  new StripeFailure(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${first}' vs '${now}'). Try using a key other than '${key}' if you meant to execute a different request.`,
  });

export const unexpectedState = (message: string, extra: Record<string, unknown> = {}) =>
  invalidRequest(message, { code: 'payment_intent_unexpected_state', ...extra });
