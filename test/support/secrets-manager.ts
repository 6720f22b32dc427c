import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { startSecretsManager } from '../../bin/local/secrets-manager.ts';

/**
 * The Secrets Manager stand-in started in-process (unit tests start no other service): a
 * client to it, and the environment that sends the service's own client there.
 */
export interface SecretsManagerForTests {
  client: SecretsManagerClient;
  env: Record<string, string>;
  /** Destroys the client and stops the stand-in. */
  stop(): Promise<void>;
}

export async function secretsManagerStandIn(): Promise<SecretsManagerForTests> {
  const secrets = await startSecretsManager();
  const env = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'unit',
    AWS_SECRET_ACCESS_KEY: 'unit',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const client = new SecretsManagerClient({
    endpoint: secrets.endpoint,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
  const stop = async () => {
    client.destroy();
    await secrets.close();
  };
  return { client, env, stop };
}
