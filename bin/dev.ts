/**
 * `npm start`: the API on http://127.0.0.1:3000/api/v2 over embedded DynamoDB, S3, SES
 * and Cognito, with demo data, and a stage's topology around it: the admin page on
 * http://localhost:5173 and the portal page on http://localhost:5174 (also on 127.0.0.1),
 * each proxying /api/* to the API (bin/local/front-ends.ts). The logins and ids are also
 * written to `.local/demo.json` (DEMO_MANIFEST to change), the stand-ins' endpoints and table
 * to `.local/stack.json` (what `npm run seed` writes to). Environment: PORT (3000),
 * ADMIN_PORT (5173), PORTAL_PORT (5174) (0: a free port), SITE_AUTH_METHOD (legacy),
 * ADMIN_ORIGINS (the admin page and Vite's default http://localhost:5173, both host names),
 * PORTAL_ORIGINS (the portal page, both host names),
 * ADMIN_UI_URL (the admin page), PORTAL_URL (the portal page), PHOTO_BUCKET, LOG_LEVEL
 * (WARN), SHIPPING_HOME_COUNTRY (US, as the dev stage file), STACK_FILE (.local/stack.json). cognito-local gets a pool, an app client with a callback per admin origin, and
 * the demo administrators as users with their demo passwords, so
 * `SITE_AUTH_METHOD=idp npm start` signs in through its hosted UI. The Secrets Manager
 * stand-in gets a fresh signing key per run (`keys init` for stage `local`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { registeredCallbackUrls, registeredLogoutUrls } from '#shared/auth/oidc';
import { PORTAL_CSP } from '../infra/front-end-csp.ts';
import { initLocalSigningKeys } from './keys/commands.ts';
import { configureCognito, configureCustomerCognito } from './local/cognito.ts';
import { startFrontEnd } from './local/front-ends.ts';
import { STACK_FILE } from './local/running-stack.ts';
import type { ApiServer } from './local/server.ts';
import { startLocalServices } from './local/services.ts';

const startedAt = performance.now();
const port = Number(process.env.PORT ?? 3000);
const tableName = 'ticketing-local';
const authMethod = process.env.SITE_AUTH_METHOD ?? 'legacy';
const manifestPath = process.env.DEMO_MANIFEST ?? '.local/demo.json';
// First, so a taken port fails fast and the origins (ADMIN_ORIGINS, PORTAL_ORIGINS, callbacks) are known.
const [adminPage, portalPage] = await Promise.all([
  startFrontEnd({ name: 'admin', root: 'infra/pages/admin', port: Number(process.env.ADMIN_PORT ?? 5173) }),
  // The portal's page under its deployed CSP (the stand-in's origin added once known): the browser test runs it so.
  startFrontEnd({
    name: 'portal',
    root: 'infra/pages/portal',
    port: Number(process.env.PORTAL_PORT ?? 5174),
    csp: PORTAL_CSP,
  }),
]).catch((error: unknown) => {
  console.error('Front-end servers failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
const services = await startLocalServices().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// Vite's default origin too, so an SPA's dev server proxying /api here works with ADMIN_PORT moved off 5173.
const viteOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173'];
// Each audience's routes accept only its own front end (shared/http/cors.ts); logins redirect only to the admin ones.
const adminOrigins = process.env.ADMIN_ORIGINS ?? [...new Set([...adminPage.origins, ...viteOrigins])].join(',');
const portalOrigins = process.env.PORTAL_ORIGINS ?? portalPage.origins.join(',');
const adminOriginList = adminOrigins.split(',').map((origin) => origin.trim());
const adminUiUrl = process.env.ADMIN_UI_URL ?? adminPage.origins[0];
const portalUrl = process.env.PORTAL_URL ?? portalPage.origins[0];
const cognito = await configureCognito({
  endpoint: services.endpoints.cognito,
  callbackUrls: registeredCallbackUrls(adminOriginList),
  logoutUrls: registeredLogoutUrls(adminOriginList, adminUiUrl),
  region: services.env.AWS_REGION!,
  credentials: { accessKeyId: services.env.AWS_ACCESS_KEY_ID!, secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY! },
}).catch(async (error: unknown) => {
  console.error('cognito-local set-up failed:', error);
  await services.stop();
  process.exit(1);
});
const customerCognito = await configureCustomerCognito({
  endpoint: services.endpoints.cognito,
  region: services.env.AWS_REGION!,
  credentials: { accessKeyId: services.env.AWS_ACCESS_KEY_ID!, secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY! },
}).catch(async (error: unknown) => {
  console.error('cognito-local customer pool set-up failed:', error);
  await services.stop();
  process.exit(1);
});
customerCognito.close();
const signingKeysEnv = await initLocalSigningKeys(services, 'local').catch(async (error: unknown) => {
  console.error('signing key set-up failed:', error);
  await services.stop();
  process.exit(1);
});

// Set before anything under shared/ or functions/ is imported: config is validated on first use. Recorded in
// STACK_FILE too: a script acting on this stack (`npm run seed -- --events N` places orders) runs shared/ code that
// reads the service's whole environment, not only the table's.
const serviceEnv: Record<string, string> = {
  ...services.env,
  ...cognito.env,
  ...customerCognito.env,
  ...signingKeysEnv,
  STAGE: 'local',
  TABLE_NAME: tableName,
  SITE_AUTH_METHOD: authMethod,
  JWT_ISSUER: `http://127.0.0.1:${port}/api/v2`,
  ADMIN_ORIGINS: adminOrigins,
  PORTAL_ORIGINS: portalOrigins,
  ADMIN_UI_URL: adminUiUrl,
  // Verification and claim mails link to the customer portal.
  PORTAL_URL: portalUrl,
  EMAIL_FROM: 'no-reply@ticketing.local',
  // The local API is called directly (the front-end pages proxy /api/* without CloudFront's header).
  ORIGIN_VERIFY_SECRET: 'none',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
  // The dev stage file's shipping.homeCountry: domestic-only shipping methods post within it only.
  SHIPPING_HOME_COUNTRY: process.env.SHIPPING_HOME_COUNTRY ?? 'US',
  // The dev stage file's seller: who every invoice names.
  INVOICE_SELLER:
    process.env.INVOICE_SELLER ??
    JSON.stringify({
      name: 'Ticketing Example Inc.',
      address: '1 Example Street, Springfield, US',
      taxId: 'US-00-0000000',
    }),
  // The dev stage file's invoice series.
  INVOICE_SERIES: process.env.INVOICE_SERIES ?? '1',
  // Business metrics are EMF lines on stdout: noise in a terminal (POWERTOOLS_METRICS_DISABLED=false shows them).
  POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
  // Webhooks (README "Webhooks"): receivers on http://127.0.0.1 allowed here only, and retries from 1 s doubling to
  // a minute for an hour, so a receiver under development sees the whole cycle.
  WEBHOOK_LOCAL_RECEIVERS: 'allow',
  WEBHOOK_RETRY_BASE_MS: process.env.WEBHOOK_RETRY_BASE_MS ?? '1000',
  WEBHOOK_RETRY_CAP_MS: process.env.WEBHOOK_RETRY_CAP_MS ?? '60000',
  WEBHOOK_GIVE_UP_AFTER_MS: process.env.WEBHOOK_GIVE_UP_AFTER_MS ?? '3600000',
};
Object.assign(process.env, serviceEnv);

let server: ApiServer | undefined;
let jobs: { stop(): Promise<void> } | undefined;
const shutdown = async () => {
  console.log('\nStopping…');
  await server?.close();
  await jobs?.stop();
  await Promise.all([adminPage.close(), portalPage.close()]);
  await services.stop();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

try {
  const { createTable } = await import('./local/table.ts');
  const { seedDemo } = await import('./seed/demo.ts');
  const { startApiServer } = await import('./local/server.ts');
  const { API_PREFIX } = await import('#shared/api-prefix');

  await createTable(tableName);
  // The data migrations a deployed stage's release runs (infra/migrations.ts), run here to their end.
  const { runMigrations } = await import('#shared/migrations/use-cases/runner');
  await runMigrations({ owner: 'npm-start', stopAt: Number.POSITIVE_INFINITY });
  const demo = await seedDemo();
  // The same administrators in cognito-local, with the same passwords (idp mode).
  for (const { login, password } of [demo.admin, demo.scanner, demo.vendor]) await cognito.createUser(login, password);
  cognito.close();
  server = await startApiServer({ port, host: '127.0.0.1' });
  // The stream's consumers, the webhook dispatcher and the lapsing of reservations, as a stage runs them.
  const { startLocalJobs } = await import('./local/jobs.ts');
  // From the stream's start: the demo's tickets were written before, and their search entries are the consumer's.
  jobs = await startLocalJobs({ tableName, startingPosition: 'TRIM_HORIZON' });
  // The Stripe stand-in posts its signed events to the API's webhook route, as a stage's Stripe endpoint does.
  const webhookUrl = `${server.url}${API_PREFIX}/payments/stripe/webhook`;
  services.payments.webhooks.configure({ url: webhookUrl });
  adminPage.proxyTo(server.url);
  portalPage.proxyTo(server.url);
  // The portal confirms its payments against the stand-in, as Stripe.js does against Stripe (pay.js).
  portalPage.configure({ paymentsBaseUrl: services.payments.baseUrl }, { connectSrc: [services.payments.baseUrl] });

  // mailStore: the SES stand-in's store (GET <mailStore>/store lists the mails sent), to follow mailed links locally.
  const manifest = {
    baseUrl: `${server.url}${API_PREFIX}`,
    adminUrl: adminUiUrl,
    portalUrl,
    authMethod,
    mailStore: services.endpoints.ses,
    ...demo,
  };
  await mkdir(dirname(manifestPath), { recursive: true });
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  // For scripts that act on this running stack (`npm run seed`): the stand-ins' endpoints, the table and the
  // service's environment (region, dummy credentials, the stage's settings and public keys; no private key).
  // `payments`: the Stripe stand-in (bin/local/stripe/), for a tool that confirms payments as a browser does.
  const payments = {
    baseUrl: services.payments.baseUrl,
    webhookUrl,
    publishableKey: services.payments.keys.publishableKey,
  };
  const stack = { apiUrl: manifest.baseUrl, tableName, endpoints: services.endpoints, payments, env: serviceEnv };
  await mkdir(dirname(STACK_FILE), { recursive: true });
  await writeFile(STACK_FILE, `${JSON.stringify(stack, null, 2)}\n`);

  const logins = (['admin', 'scanner', 'vendor', 'customer', 'otherCustomer', 'unverifiedCustomer'] as const).flatMap(
    (role) => {
      const credentials = demo[role];
      return credentials ? [`  ${role.padEnd(19)} ${credentials.login} / ${credentials.password}`] : [];
    },
  );
  console.log(
    [
      `Ticketing API ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s: ${manifest.baseUrl}`,
      `  auth method    ${authMethod}`,
      `  DynamoDB       ${services.endpoints.dynamodb} (table ${tableName})`,
      `  S3             ${services.endpoints.s3} (bucket ${services.env.PHOTO_BUCKET})`,
      `  SES            ${services.endpoints.ses} (sent mail: ${services.endpoints.ses}/store)`,
      `  Cognito        ${services.endpoints.cognito} (pool ${cognito.env.COGNITO_USER_POOL_ID}, client ${cognito.env.COGNITO_CLIENT_ID})`,
      `  Secrets Mgr    ${services.endpoints.secretsManager} (signing keys ${signingKeysEnv.JWT_SIGNING_KEY_SECRET})`,
      `  Stripe         ${services.payments.baseUrl} (stand-in; events to ${webhookUrl}; test cards pm_card_visa, pm_card_chargeDeclined)`,
      `  admin page     ${adminUiUrl} (also ${adminPage.origins[1]}; /api/* proxied to the API)`,
      `  portal page    ${portalUrl} (also ${portalPage.origins[1]}; /api/* proxied to the API)`,
      `  API docs       ${adminUiUrl}${API_PREFIX}/docs (the document: ${API_PREFIX}/openapi.json)`,
      '  webhooks       stream poller and dispatcher running; receivers on http://127.0.0.1:<port> allowed (WEBHOOK_LOCAL_RECEIVERS=allow)',
      "  paid orders    issued by the stream's issuing consumer, behind the Stripe webhook's answer",
      '  origin check   none (ORIGIN_VERIFY_SECRET=none: no CloudFront in front; a deployed function without it refuses all)',
      `  admin origins  ${adminOrigins}`,
      `  portal origins ${portalOrigins}`,
      'Demo logins:',
      ...logins,
      `Demo ids: ${manifestPath}. Ctrl-C stops everything.`,
    ].join('\n'),
  );
} catch (error) {
  console.error('Start-up failed:', error);
  await services.stop();
  process.exit(1);
}
