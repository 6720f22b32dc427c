import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { countingBudgets, type CountedBudget } from '../rate-budgets.ts';
import type { Middleware } from './request.ts';

/**
 * `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10, Structured
 * Field lists): each budget the request was counted against, so a client sees what it has
 * left before it is refused. `"forgot_password_address";q=3;w=86400` and
 * `"forgot_password_address";r=2;t=86400`.
 */
export function rateLimitHeadersOf(counted: Iterable<CountedBudget>): Record<string, string> {
  const all = [...counted];
  if (!all.length) return {};
  return {
    'RateLimit-Policy': all.map((b) => `"${b.policy}";q=${b.quota};w=${b.windowSeconds}`).join(', '),
    RateLimit: all.map((b) => `"${b.policy}";r=${b.remaining};t=${b.resetSeconds}`).join(', '),
  };
}

/** The headers of a request that failed after counting budgets, for `rateLimitHeaders()` to add to its problem answer. */
const ofFailed = new WeakMap<object, Record<string, string>>();

/**
 * Runs a route's work collecting the budgets it counts; its answer carries them. When the
 * work fails, they wait beside the error for the problem answer (`rateLimitHeaders()`).
 */
export async function withRateLimitHeaders(
  work: () => Promise<APIGatewayProxyStructuredResultV2>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const counted = new Map<string, CountedBudget>();
  try {
    const result = await countingBudgets(counted, work);
    return counted.size
      ? { ...result, headers: { ...result.headers, ...rateLimitHeadersOf(counted.values()) } }
      : result;
  } catch (error) {
    if (counted.size && error !== null && typeof error === 'object')
      ofFailed.set(error, rateLimitHeadersOf(counted.values()));
    throw error;
  }
}

/** Adds the counted budgets to the problem answer of a request that failed after counting them (a 429, a 401, a 409...). */
export function rateLimitHeaders(): Middleware {
  return {
    onError: async (request) => {
      const headers = request.error ? ofFailed.get(request.error) : undefined;
      const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
      if (headers && response) response.headers = { ...response.headers, ...headers };
    },
  };
}
