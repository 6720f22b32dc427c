/**
 * The environment of the integration tests, in one place: vitest.config.ts sets it in
 * every test worker, and tests import the constants instead of repeating the values.
 * The stand-ins' endpoints are added per run by `global-setup.ts` (see `worker-env.ts`).
 */
export const TABLE_NAME = 'ticketing-test';
export const PHOTO_BUCKET = 'ticketing-photos-test';
export const ALLOWED_ORIGIN = 'https://admin.ticketing.test';
export const JWT_ISSUER = 'https://ticketing.test/api/v2';
/** Fixed so a failing token can be decoded by hand; only ever used against local services. */
export const JWT_SECRET = 'test-only-secret-0123456789abcdefghijklmnopqrstuvwxyz';
export const EMAIL_FROM = 'no-reply@ticketing.test';
/** The API as the browser sees it: the identity provider sends the browser back to `<API_BASE_URL>/auth/callback`. */
export const API_BASE_URL = 'https://ticketing.test/api/v2';
export const ADMIN_UI_URL = ALLOWED_ORIGIN;
/** The customer portal: verification mails link to `<PORTAL_URL>/verify-email?token=…`. */
export const PORTAL_URL = ALLOWED_ORIGIN;

export const TEST_ENV: Record<string, string> = {
  STAGE: 'test',
  TABLE_NAME,
  SITE_AUTH_METHOD: 'legacy',
  JWT_SECRET,
  JWT_ISSUER,
  ALLOWED_ORIGINS: ALLOWED_ORIGIN,
  PHOTO_BUCKET,
  EMAIL_FROM,
  API_BASE_URL,
  ADMIN_UI_URL,
  PORTAL_URL,
  LOG_LEVEL: 'ERROR',
};
