import { fileURLToPath } from 'node:url';

/** The project root (bundles resolve `#shared/*` and node_modules from here). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const TABLE_NAME = 'ticketing-bench';

/**
 * What `shared/config.ts` validates at cold start, plus the region and dummy credentials
 * the SDK wants. Legacy sign-in, so `POST /auth/legacy/login` answers 200 rather than 403.
 * Only ever used against local stand-ins; nothing here is a real secret.
 */
export const BENCH_ENV: Record<string, string> = {
  STAGE: 'bench',
  TABLE_NAME,
  SITE_AUTH_METHOD: 'legacy',
  JWT_SECRET: 'bench-only-secret-0123456789abcdefghijklmnopqrstuvwxyz',
  JWT_ISSUER: 'https://ticketing.bench/api/v2',
  ALLOWED_ORIGINS: 'https://admin.ticketing.bench',
  LOG_LEVEL: 'INFO',
  // The sections only some routes read at cold start (email, identity provider); init makes no call with them.
  ADMIN_UI_URL: 'https://admin.ticketing.bench',
  EMAIL_FROM: 'no-reply@ticketing.bench',
  COGNITO_USER_POOL_ID: 'us-east-1_bench',
  COGNITO_CLIENT_ID: 'bench-client',
  COGNITO_DOMAIN: 'https://ticketing-bench.auth.us-east-1.amazoncognito.com',
  COGNITO_ISSUER: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_bench',
  CUSTOMER_COGNITO_USER_POOL_ID: 'us-east-1_benchcustomers',
  CUSTOMER_COGNITO_CLIENT_ID: 'bench-customer-client',
  PORTAL_URL: 'https://portal.ticketing.bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  // The photo routes validate their bucket settings at init.
  PHOTO_BUCKET: 'ticketing-photos-bench',
  PHOTO_BASE_URL: 'https://photos.ticketing.bench',
};

/** Module-init samples per bundle; each is a fresh `node` process, as a Lambda cold start is. */
export const INIT_RUNS = 20;

/**
 * Handler-latency requests per route (and as many raw repetitions), after the warm-up.
 * The warm-up is long enough for V8 to optimise the middleware path, as it is in a warm
 * Lambda container; cold-start cost is what the init column measures.
 */
export const WARMUP = 100;
export const ITERATIONS = 150;
