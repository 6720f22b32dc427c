/**
 * The environment of the integration tests, in one place: vitest.config.ts sets it in
 * every test worker, and tests import the constants instead of repeating the values.
 * The stand-ins' endpoints and the signing keys (JWT_PUBLIC_KEYS, JWT_SIGNING_KEY_SECRET)
 * are added per run by `global-setup.ts` (see `worker-env.ts`).
 */
export const TABLE_NAME = 'ticketing-test';
/**
 * The only tables with a stream: one for each file that reads a stream (`<TABLE_NAME>-<suffix>`), all made by
 * global-setup.ts before any test writes. The shared table has none. DynamoDB Local slows every write to a
 * stream-enabled table as the stream records pile up: late in a run a PutItem to the shared table, when it had a stream,
 * took 0.3-0.9 s (and one to a stream table made mid-run 9.7 s), which timed out the webhook files and made every
 * other file's writes slow. A file that reads a stream points TABLE_NAME at its own with `useOwnStreamTable` in its
 * `vi.hoisted`, before anything reads TABLE_NAME.
 */
export const OWN_STREAM_TABLES = [
  'aim',
  'attempts',
  'events',
  'fair',
  'gate-rush',
  'issuing',
  'onsale',
  'poller',
  'recovery',
  'redeliver',
  'redeliver-scope',
  'replay',
  'search',
  'secrets',
  'webhooks',
] as const;
export type OwnStreamTable = (typeof OWN_STREAM_TABLES)[number];
export const ownStreamTable = (suffix: OwnStreamTable) => `${TABLE_NAME}-${suffix}`;
/** This test file's TABLE_NAME becomes its own stream table; returns its name. */
export function useOwnStreamTable(suffix: OwnStreamTable): string {
  process.env.TABLE_NAME = ownStreamTable(suffix);
  return process.env.TABLE_NAME;
}
export const PHOTO_BUCKET = 'ticketing-photos-test';
/** The admin front end's origin (ADMIN_ORIGINS): admin routes and the login redirect accept it. */
export const ALLOWED_ORIGIN = 'https://admin.ticketing.test';
/** The customer portal's origin (PORTAL_ORIGINS), distinct: customer routes accept only it, admin routes refuse it. */
export const PORTAL_ORIGIN = 'https://portal.ticketing.test';
export const JWT_ISSUER = 'https://ticketing.test/api/v2';
/** The stage whose signing key secret global-setup.ts creates in the Secrets Manager stand-in (`ticketing/test/signing-keys`). */
export const SIGNING_KEY_STAGE = 'test';
/**
 * A public key whose private half was thrown away, so unit tests can load handler modules
 * (the configuration wants a JWKS) while every token they present is refused. In the
 * integration workers, global-setup.ts's real key set replaces it.
 */
export const PLACEHOLDER_PUBLIC_KEYS = JSON.stringify({
  keys: [
    {
      kty: 'EC',
      crv: 'P-256',
      x: 'OLZGhC-1mhTAu0ubVyRzr68Gxl4SGGZ6PkYcvvIKMUs',
      y: 'j73L2bTheukDofxNdjm4d2gc3V5ljl-1IhNA4ExLxU4',
      kid: 'test-placeholder',
      alg: 'ES256',
      use: 'sig',
    },
  ],
});
export const EMAIL_FROM = 'no-reply@ticketing.test';
/**
 * Another front-end origin, registered on the test app client (a callback per origin) but
 * allowed only by the tests that set it (idp-login.test.ts: a login started there comes
 * back to that origin's callback).
 */
export const SECOND_ORIGIN = 'https://admin-alt.ticketing.test';
export const ADMIN_UI_URL = ALLOWED_ORIGIN;
/** The customer portal: verification mails link to `<PORTAL_URL>/verify-email#token=…`. */
export const PORTAL_URL = PORTAL_ORIGIN;

export const TEST_ENV: Record<string, string> = {
  STAGE: 'test',
  TABLE_NAME,
  SITE_AUTH_METHOD: 'legacy',
  JWT_ISSUER,
  JWT_PUBLIC_KEYS: PLACEHOLDER_PUBLIC_KEYS,
  ADMIN_ORIGINS: ALLOWED_ORIGIN,
  PORTAL_ORIGINS: PORTAL_ORIGIN,
  PHOTO_BUCKET,
  EMAIL_FROM,
  ADMIN_UI_URL,
  PORTAL_URL,
  LOG_LEVEL: 'ERROR',
  // The checkout's home country (shared/selling/services/shipping-settings.ts): a domestic-only method posts within it only.
  SHIPPING_HOME_COUNTRY: 'NL',
  // Who every invoice names (shared/selling/services/invoice-seller.ts); invoices.test.ts sets its own seller.
  INVOICE_SELLER: JSON.stringify({
    name: 'Test Seller B.V.',
    address: 'Teststraat 1, Amsterdam, NL',
    taxId: 'NL000000000B01',
  }),
  // Two series: every test that numbers invoices exercises the series (an order's by its id).
  INVOICE_SERIES: '2',
  // No CloudFront in front of the tests' handlers: said explicitly (unset, every request is refused).
  ORIGIN_VERIFY_SECRET: 'none',
  // No EMF lines in test output; test/integration/business-metrics.test.ts reads what would be published.
  POWERTOOLS_METRICS_DISABLED: 'true',
  // Webhooks (shared/webhooks/services/webhook-settings.ts): receivers on http://127.0.0.1, and a schedule of
  // milliseconds, not days: retries 100 ms apart doubling to 400 ms, given up a minute after
  // creation (tests that need that move the clock), each attempt 1 s at most.
  WEBHOOK_LOCAL_RECEIVERS: 'allow',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_CAP_MS: '400',
  WEBHOOK_GIVE_UP_AFTER_MS: '60000',
  WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000',
  // A stream batch's first attempts end within 500 ms (deployed 1 s), so a test tells that window from the 1 s limit.
  WEBHOOK_FIRST_ATTEMPTS_MS: '500',
};
