import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { corsHeaders, type Audience } from './cors.ts';
import { header, type Middleware } from './request.ts';

/** A JSON API serves no documents: lock down everything a browser might do with an answer. */
const SECURITY_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/**
 * The security and CORS headers of every API answer for a request from `origin`: the
 * middy stack adds them, and the local server (bin/local/server.ts) to the answers it
 * makes itself (unmatched routes, 405, 413), as API Gateway's own answers carry CORS.
 * CORS follows the route's audience (cors.ts).
 */
export const apiAnswerHeaders = (origin: string | undefined, audience: Audience): Record<string, string> => ({
  ...SECURITY_HEADERS,
  ...corsHeaders(origin, audience),
});

/** Adds CORS (for the route's audience) and security headers to every answer, errors included. */
export function responseHeaders(audience: Audience): Middleware {
  const apply: NonNullable<Middleware['after']> = async (request) => {
    const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
    if (!response) return;
    response.headers = { ...apiAnswerHeaders(header(request.event, 'origin'), audience), ...response.headers };
  };
  return { after: apply, onError: apply };
}
