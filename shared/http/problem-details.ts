import { AppError, type ErrorKind } from '../errors.ts';
import { logger } from '../logger.ts';
import type { Middleware } from './request.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** How each of the project's error kinds reads over HTTP: the one place that knows. */
const PROBLEMS: Record<ErrorKind, { status: number; slug: string; title: string }> = {
  validation: { status: 400, slug: 'validation', title: 'Invalid request' },
  unauthenticated: { status: 401, slug: 'unauthorized', title: 'Unauthorized' },
  forbidden: { status: 403, slug: 'forbidden', title: 'Forbidden' },
  'not-found': { status: 404, slug: 'not-found', title: 'Not found' },
  conflict: { status: 409, slug: 'conflict', title: 'Conflict' },
  'too-large': { status: 413, slug: 'payload-too-large', title: 'Payload too large' },
  'unsupported-media-type': { status: 415, slug: 'unsupported-media-type', title: 'Unsupported media type' },
  'rate-limited': { status: 429, slug: 'rate-limited', title: 'Too many requests' },
  unprocessable: { status: 422, slug: 'unprocessable', title: 'Unprocessable content' },
  unavailable: { status: 503, slug: 'unavailable', title: 'Service unavailable' },
};

/** A problem lists at most this many field errors; `errorsNotListed` counts the rest (README "Conventions the spec leaves open"). */
export const MAX_LISTED_ERRORS = 20;
/** Paths and messages echo the client's input (unknown keys): each is cut to this many characters. */
const MAX_TEXT = 200;
/** The `detail` sentence, likewise. */
const MAX_DETAIL = 2000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The details as answered: a bounded `errors` list, so a body of a million unknown keys gets a small answer. */
function boundedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const errors = details.errors;
  if (!Array.isArray(errors)) return details;
  const listed = (errors as { path: string; message: string }[])
    .slice(0, MAX_LISTED_ERRORS)
    .map(({ path, message }) => ({ path: cut(String(path), MAX_TEXT), message: cut(String(message), MAX_TEXT) }));
  return {
    ...details,
    errors: listed,
    ...(errors.length > MAX_LISTED_ERRORS ? { errorsNotListed: errors.length - MAX_LISTED_ERRORS } : {}),
  };
}

function headersOf(error: AppError): Record<string, string> {
  if (error.kind === 'unauthenticated') return { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
  // Rate limits, a request still in flight (409) and a dependency down (503) say when to come back.
  const retryAfter = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) return { 'Retry-After': String(retryAfter) };
  return {};
}

/**
 * The one error mapper: the project's errors become RFC 9457 problem details; anything
 * else is logged in full and answered as a bare 500 carrying only the request id.
 */
export function problemDetails(): Middleware {
  return {
    onError: async (request) => {
      const error = request.error;
      const requestId = request.context.awsRequestId;
      const instance = request.event.rawPath;
      if (error instanceof AppError) {
        const { status, slug, title } = PROBLEMS[error.kind];
        // The client sees only the dependency's kind; the log keeps what the SDK said.
        if (error.kind === 'unavailable')
          logger.warn('dependency unavailable', { ...error.details, error: (error.cause ?? error) as Error });
        request.response = {
          statusCode: status,
          headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headersOf(error) },
          body: JSON.stringify({
            type: `/problems/${slug}`,
            title,
            status,
            detail: cut(error.message, MAX_DETAIL),
            instance,
            ...boundedDetails(error.details),
          }),
        };
        return;
      }
      logger.error('unhandled error', { error: error ?? undefined });
      request.response = {
        statusCode: 500,
        headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
        body: JSON.stringify({
          type: '/problems/internal',
          title: 'Internal error',
          status: 500,
          detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
          instance,
          requestId,
        }),
      };
    },
  };
}
