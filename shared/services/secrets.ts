import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { answeringOutages, clientOptions } from '../aws-clients.ts';
import { keptPerContainer } from '../container-state.ts';

/**
 * The one Secrets Manager client: the signing key secret (signing-key-secret.ts, issuing
 * functions) and the origin-verify secret (origin-verify-secret.ts, every deployed
 * function). Built at the first read. Locally the SDK finds the stand-in
 * (bin/local/secrets-manager.ts) through AWS_ENDPOINT_URL_SECRETS_MANAGER.
 */
let client: SecretsManagerClient | undefined;

/** The SecretString of a secret's current version. */
export async function readSecretString(secretId: string): Promise<string> {
  // Timeouts (shared/aws-clients.ts), so a stalled call is retried rather than holding the request; an outage is a 503.
  client ??= answeringOutages(new SecretsManagerClient(clientOptions('secrets')), 'secrets');
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error(`The secret ${secretId} has no SecretString.`);
  return SecretString;
}

// A new container builds a new client (tests point the environment at another stand-in between cases).
keptPerContainer(() => {
  client?.destroy();
  client = undefined;
});
