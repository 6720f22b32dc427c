/**
 * The header CloudFront's `/api/*` origin adds (infra/front-end-distribution.ts; the secret
 * in infra/origin-verify.ts). The value is a secret in Secrets Manager, so only requests that came through one of the stage's
 * front-end distributions carry it; a call straight to the `*.execute-api.*` host does not.
 * Its own module: the stack imports it without the check's run-time dependencies.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
