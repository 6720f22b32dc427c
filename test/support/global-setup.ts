import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TestProject } from 'vitest/node';
import { configureCognito, configureCustomerCognito } from '../../bin/local/cognito.ts';
import { startLocalServices } from '../../bin/local/services.ts';
import { createTable } from '../../bin/local/table.ts';
import { initLocalSigningKeys } from '../../bin/keys/commands.ts';
import { registeredCallbackUrls, registeredLogoutUrls } from '#shared/auth/oidc';
import {
  ADMIN_UI_URL,
  ALLOWED_ORIGIN,
  OWN_STREAM_TABLES,
  ownStreamTable,
  PHOTO_BUCKET,
  SECOND_ORIGIN,
  SIGNING_KEY_STAGE,
  TABLE_NAME,
} from './env.ts';
import { tableUsesRun } from './table-grants-run.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The stand-ins' endpoints and credentials, merged into process.env by `worker-env.ts`. */
    localServicesEnv: Record<string, string>;
    /** Where each file leaves its functions' recorded DynamoDB actions (test/support/table-grants-run.ts). */
    tableUsesDir: string;
  }
}

/**
 * Starts the embedded services once per run of the integration project, creates the
 * (empty, shared) table, the Cognito pools (administrators', customers') and app clients,
 * and the signing key secret. Tests create their own
 * uniquely keyed data (and Cognito users).
 */
/** The data migrations, run on the new table as a release runs them (infra/migrations.ts). */
async function applyMigrations(env: Record<string, string>): Promise<void> {
  // shared/ reads its settings when its modules load: set them first (the workers get the same values).
  Object.assign(process.env, env, { TABLE_NAME });
  const { runMigrations } = await import('#shared/migrations/use-cases/runner');
  const outcome = await runMigrations({ owner: 'test-setup', stopAt: Number.POSITIVE_INFINITY });
  if (outcome.state !== 'done') throw new Error(`migrations on the test table: ${JSON.stringify(outcome)}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await startLocalServices({ photoBucket: PHOTO_BUCKET });
  let cognitoEnv: Record<string, string>;
  let keysEnv: Record<string, string>;
  try {
    // A fresh ES256 key per run, made by the same code as `npm run keys -- init`.
    keysEnv = await initLocalSigningKeys(services, SIGNING_KEY_STAGE);
    const client = new DynamoDBClient({
      endpoint: services.endpoints.dynamodb,
      region: services.env.AWS_REGION,
      credentials: {
        accessKeyId: services.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY!,
      },
    });
    // Without a stream: the files that read one have their own (OWN_STREAM_TABLES, why there).
    await createTable(TABLE_NAME, client, { stream: false });
    for (const suffix of OWN_STREAM_TABLES) await createTable(ownStreamTable(suffix), client);
    client.destroy();
    await applyMigrations({ ...services.env, ...keysEnv });
    const cognito = await configureCognito({
      endpoint: services.endpoints.cognito,
      callbackUrls: registeredCallbackUrls([ALLOWED_ORIGIN, SECOND_ORIGIN]),
      logoutUrls: registeredLogoutUrls([ALLOWED_ORIGIN, SECOND_ORIGIN], ADMIN_UI_URL),
      region: services.env.AWS_REGION!,
      credentials: {
        accessKeyId: services.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY!,
      },
    });
    const customers = await configureCustomerCognito({
      endpoint: services.endpoints.cognito,
      region: services.env.AWS_REGION!,
      credentials: {
        accessKeyId: services.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY!,
      },
    });
    cognitoEnv = { ...cognito.env, ...customers.env };
    cognito.close();
    customers.close();
  } catch (error) {
    await services.stop();
    throw error;
  }
  project.provide('localServicesEnv', { ...services.env, ...cognitoEnv, ...keysEnv });
  const tableUses = tableUsesRun();
  project.provide('tableUsesDir', tableUses.dir);
  return async () => {
    await services.stop();
    tableUses.finish();
  };
}
