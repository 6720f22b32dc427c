import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TestProject } from 'vitest/node';
import { startLocalServices } from '../../bin/local/services.ts';
import { createTable } from '../../bin/local/table.ts';
import { PHOTO_BUCKET, TABLE_NAME } from './env.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The stand-ins' endpoints and credentials, merged into process.env by `worker-env.ts`. */
    localServicesEnv: Record<string, string>;
  }
}

/**
 * Starts the embedded services once per run of the integration project and creates the
 * (empty, shared) table. Tests create their own uniquely keyed data.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await startLocalServices({ photoBucket: PHOTO_BUCKET });
  try {
    const client = new DynamoDBClient({
      endpoint: services.endpoints.dynamodb,
      region: services.env.AWS_REGION,
      credentials: { accessKeyId: services.env.AWS_ACCESS_KEY_ID!, secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY! },
    });
    await createTable(TABLE_NAME, client);
    client.destroy();
  } catch (error) {
    await services.stop();
    throw error;
  }
  project.provide('localServicesEnv', services.env);
  return () => services.stop();
}
