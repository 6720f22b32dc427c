import { config } from '../config.ts';
import { header, type RouteEvent } from './request.ts';

/**
 * The caller's address, for the per-client login limits. API Gateway's `sourceIp` is the
 * TCP peer: behind the front ends' CloudFront that is an edge server, shared by many
 * viewers. Where requests must come through CloudFront (ORIGIN_VERIFY_SECRETS set, checked
 * by origin-verify.ts before any handler), CloudFront's own `CloudFront-Viewer-Address`
 * (`ip:port`, set by CloudFront, never the viewer's) names the viewer when the origin
 * request policy forwards it; otherwise `sourceIp`.
 */
export function clientAddress(event: RouteEvent): string {
  const viewer = config().ORIGIN_VERIFY_SECRETS ? header(event, 'cloudfront-viewer-address') : undefined;
  if (viewer) return viewer.replace(/:\d+$/, '');
  return event.requestContext.http.sourceIp;
}
