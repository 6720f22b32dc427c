import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';

/**
 * The security headers CloudFront adds to the front ends' files and to the API documentation:
 * HSTS for two years (subdomains too), `nosniff`, no framing, the referrer's origin only
 * across origins, and `csp`, which replaces one the origin's answer sets only where `overrideCsp`.
 */
export function securityHeaders(
  csp: string,
  { overrideCsp }: { overrideCsp: boolean },
): ResponseSecurityHeadersBehavior {
  return {
    strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
    contentSecurityPolicy: { contentSecurityPolicy: csp, override: overrideCsp },
  };
}
