import { config } from '../config.ts';
import { header, type RouteEvent } from './request.ts';

/**
 * Set on every `/api/*` request by the front ends' CloudFront Function from the viewer's
 * own address (infra/front-ends.ts), overwriting any value the viewer sent, so it cannot
 * be forged. The managed AllViewerExceptHostHeader policy does not forward CloudFront's
 * `CloudFront-Viewer-Address`, and a custom policy that adds it must also forward Host,
 * which API Gateway refuses.
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

/**
 * The caller's address, for the per-client login limits. API Gateway's `sourceIp` is the
 * TCP peer: behind the front ends' CloudFront that is an edge server, shared by many
 * viewers. Where requests must come through CloudFront (ORIGIN_VERIFY_SECRETS set, checked
 * by origin-verify.ts before any handler) the viewer's address is the header above;
 * anywhere else (locally, or a stage without the check) the header could come from the
 * caller, so only `sourceIp` counts.
 */
export function clientAddress(event: RouteEvent): string {
  const viewer = config().ORIGIN_VERIFY_SECRETS ? header(event, VIEWER_ADDRESS_HEADER) : undefined;
  return viewer || event.requestContext.http.sourceIp;
}
