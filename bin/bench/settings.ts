import { fileURLToPath } from 'node:url';
import { publicHalf } from '#shared/auth/key-set';
import { signingKeySecretName, webhookSecretsKeyName } from '../keys/commands.ts';

/** The project root (bundles resolve `#shared/*` and node_modules from here). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const TABLE_NAME = 'ticketing-bench';
/** Where the handlers' recorded commands are replayed bare (bin/bench/replay.ts): a twin that follows the table. */
export const TWIN_TABLE_NAME = 'ticketing-bench-floor';

/**
 * A fixed signing key: bundles' cold-start runs (init.ts) validate JWT_PUBLIC_KEYS with no
 * service running, and bench.ts writes this same key into the Secrets Manager stand-in
 * for the latency runs. Made for the bench only, never used anywhere else.
 */
export const BENCH_SIGNING_KEY = {
  kty: 'EC',
  crv: 'P-256',
  x: 'paoSUKg0RdxZ7DTAJArAYYWXanuTwDK_m87hPtm62OA',
  y: 'uhfpIJHQfvydcm3FKozwdbh4XqKh0O4E-lrT2yl5_VI',
  kid: 'bench-key',
  alg: 'ES256',
  use: 'sig',
  d: 'KoQzZS3eYbbMmcKsXd6WLATFY0DoIIlS0ulgj2RThhY',
} as const;
export const BENCH_SIGNING_STAGE = 'bench';

/**
 * What `shared/config.ts` validates at cold start, plus the region and dummy credentials
 * the SDK wants. Legacy sign-in, so `POST /auth/legacy/login` answers 200 rather than 403.
 * Only ever used against local stand-ins; nothing here is a real secret.
 */
export const BENCH_ENV: Record<string, string> = {
  STAGE: 'bench',
  TABLE_NAME,
  SITE_AUTH_METHOD: 'legacy',
  JWT_PUBLIC_KEYS: JSON.stringify({ keys: [publicHalf(BENCH_SIGNING_KEY)] }),
  JWT_SIGNING_KEY_SECRET: signingKeySecretName(BENCH_SIGNING_STAGE),
  SEALING_KEY_SECRET: webhookSecretsKeyName(BENCH_SIGNING_STAGE),
  JWT_ISSUER: 'https://ticketing.bench/api/v2',
  ADMIN_ORIGINS: 'https://admin.ticketing.bench',
  PORTAL_ORIGINS: 'https://portal.ticketing.bench',
  LOG_LEVEL: 'INFO',
  SHIPPING_HOME_COUNTRY: 'US',
  INVOICE_SELLER: JSON.stringify({ name: 'Bench Seller', address: '1 Bench Road', taxId: 'BENCH-1' }),
  // prod's (infra/stages/prod.ts), so the heat bench measures the counters as the target would write them; another
  // count for a comparison: INVOICE_SERIES=1 npm run bench -- --heat.
  INVOICE_SERIES: process.env.INVOICE_SERIES ?? '16',
  // Handlers invoked directly, no CloudFront in front: said explicitly (unset, every request is refused).
  ORIGIN_VERIFY_SECRET: 'none',
  // EMF lines would interleave with the figures; their cost (one stdout write per flush) is not measured.
  POWERTOOLS_METRICS_DISABLED: 'true',
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

/** How much `npm run bench` measures (its flags, bin/bench.ts). */
export interface BenchRuns {
  /** Module-init samples per bundle; each is a fresh `node` process, as a Lambda cold start is. */
  initRuns: number;
  /**
   * Handler-latency requests per route (each replayed once), after the warm-up. The default
   * warm-up is long enough for V8 to optimise the middleware path, as it is in a warm
   * Lambda container; cold-start cost is what the init column measures.
   */
  warmup: number;
  iterations: number;
}
export const DEFAULT_RUNS: BenchRuns = { initRuns: 20, warmup: 100, iterations: 150 };
