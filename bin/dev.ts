/**
 * `npm start`: the API on http://127.0.0.1:3000/api/v2 over embedded DynamoDB, S3, SES
 * and Cognito, with demo data. The logins and ids are also written to `.local/demo.json`.
 * Environment: PORT (3000), SITE_AUTH_METHOD (legacy), JWT_SECRET (random per run),
 * ALLOWED_ORIGINS (the Vite dev server), ADMIN_UI_URL (the first allowed origin),
 * PHOTO_BUCKET, LOG_LEVEL (WARN). cognito-local gets a pool, an app client whose callback
 * is this server's /auth/callback, and the demo administrators as users with their demo
 * passwords, so `SITE_AUTH_METHOD=idp npm start` signs in through its hosted UI.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { registeredCallbackUrls, registeredLogoutUrls } from '#shared/auth/oidc';
import { configureCognito, configureCustomerCognito } from './local/cognito.ts';
import type { ApiServer } from './local/server.ts';
import { startLocalServices } from './local/services.ts';

const startedAt = performance.now();
const port = Number(process.env.PORT ?? 3000);
const tableName = 'ticketing-local';
const authMethod = process.env.SITE_AUTH_METHOD ?? 'legacy';
const services = await startLocalServices().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

const allowedOrigins = process.env.ALLOWED_ORIGINS ?? 'http://127.0.0.1:5173,http://localhost:5173';
const adminUiUrl = process.env.ADMIN_UI_URL ?? allowedOrigins.split(',')[0]!.trim();
const cognito = await configureCognito({
  endpoint: services.endpoints.cognito,
  callbackUrls: registeredCallbackUrls(allowedOrigins.split(',').map((origin) => origin.trim())),
  logoutUrls: registeredLogoutUrls(allowedOrigins.split(',').map((origin) => origin.trim()), adminUiUrl),
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

// Set before anything under shared/ or functions/ is imported: config is validated on first use.
Object.assign(process.env, services.env, cognito.env, customerCognito.env, {
  STAGE: 'local',
  TABLE_NAME: tableName,
  SITE_AUTH_METHOD: authMethod,
  JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(48).toString('base64url'),
  JWT_ISSUER: `http://127.0.0.1:${port}/api/v2`,
  ALLOWED_ORIGINS: allowedOrigins,
  ADMIN_UI_URL: adminUiUrl,
  // Verification mails link to the customer portal; locally the first allowed origin, like the admin UI.
  PORTAL_URL: process.env.PORTAL_URL ?? adminUiUrl,
  EMAIL_FROM: 'no-reply@ticketing.local',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
});

let server: ApiServer | undefined;
const shutdown = async () => {
  console.log('\nStopping…');
  await server?.close();
  await services.stop();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

try {
  const { createTable } = await import('./local/table.ts');
  const { seedDemo } = await import('./seed/demo.ts');
  const { startApiServer } = await import('./local/server.ts');
  const { API_PREFIX } = await import('#shared/routes');

  await createTable(tableName);
  const demo = await seedDemo();
  // The same administrators in cognito-local, with the same passwords (idp mode).
  for (const { login, password } of [demo.admin, demo.scanner, demo.vendor]) await cognito.createUser(login, password);
  cognito.close();
  server = await startApiServer({ port, host: '127.0.0.1' });

  const manifest = { baseUrl: `${server.url}${API_PREFIX}`, authMethod, ...demo };
  await mkdir('.local', { recursive: true });
  await writeFile('.local/demo.json', `${JSON.stringify(manifest, null, 2)}\n`);

  const logins = (['admin', 'scanner', 'vendor', 'customer', 'otherCustomer', 'unverifiedCustomer'] as const).flatMap((role) => {
    const credentials = demo[role];
    return credentials ? [`  ${role.padEnd(19)} ${credentials.login} / ${credentials.password}`] : [];
  });
  console.log(
    [
      `Ticketing API ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s: ${manifest.baseUrl}`,
      `  auth method    ${authMethod}`,
      `  DynamoDB       ${services.endpoints.dynamodb} (table ${tableName})`,
      `  S3             ${services.endpoints.s3} (bucket ${services.env.PHOTO_BUCKET})`,
      `  SES            ${services.endpoints.ses} (sent mail: ${services.endpoints.ses}/store)`,
      `  Cognito        ${services.endpoints.cognito} (pool ${cognito.env.COGNITO_USER_POOL_ID}, client ${cognito.env.COGNITO_CLIENT_ID})`,
      `  admin UI       ${adminUiUrl} (login and callback redirects go here)`,
      'Demo logins:',
      ...logins,
      'Demo ids: .local/demo.json. Ctrl-C stops everything.',
    ].join('\n'),
  );
} catch (error) {
  console.error('Start-up failed:', error);
  await services.stop();
  process.exit(1);
}
