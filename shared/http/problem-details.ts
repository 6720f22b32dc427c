import { HttpProblem } from './errors.ts';
import { logger } from './logger.ts';
import type { Middleware } from './request.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The one error mapper: typed errors become RFC 9457 problem details; anything else is
 * logged in full and answered as a bare 500 carrying only the request id.
 */
export function problemDetails(): Middleware {
  return {
    onError: async (request) => {
      const error = request.error;
      const requestId = request.context.awsRequestId;
      const instance = request.event.rawPath;
      if (error instanceof HttpProblem) {
        if (error.status >= 500) logger.error('request failed', { error });
        request.response = {
          statusCode: error.status,
          headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...error.headers },
          body: JSON.stringify({
            type: `/problems/${error.slug}`,
            title: error.title,
            status: error.status,
            detail: error.message,
            instance,
            ...error.extensions,
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
