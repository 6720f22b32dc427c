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
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  // The photo routes validate their bucket settings at init.
  PHOTO_BUCKET: 'ticketing-photos-bench',
  PHOTO_BASE_URL: 'https://photos.ticketing.bench',
};

/** Module-init samples per bundle; each is a fresh `node` process, as a Lambda cold start is. */
export const INIT_RUNS = 20;

/** Handler-latency requests per route (and as many raw repetitions), after the warm-up. */
export const WARMUP = 10;
export const ITERATIONS = 100;
