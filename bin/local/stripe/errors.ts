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

export const invalidRequest = (message: string, extra: Record<string, unknown> = {}, status = 400) =>
  new StripeFailure(status, { type: 'invalid_request_error', message, ...extra });

export const missing = (kind: string, id: string, param = 'id') =>
  invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param }, 404);

export const missingParam = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });

export const unknownParam = (param: string) =>
  invalidRequest(`Received unknown parameter: ${param}`, { code: 'parameter_unknown', param });

export const authentication = (message: string) => new StripeFailure(401, { type: 'invalid_request_error', message });

export const idempotencyConflict = (key: string) =>
  new StripeFailure(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });

export const unexpectedState = (message: string, extra: Record<string, unknown> = {}) =>
  invalidRequest(message, { code: 'payment_intent_unexpected_state', ...extra });
