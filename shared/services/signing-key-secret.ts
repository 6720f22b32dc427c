import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from '../schema.ts';
import { requireSection } from '../config.ts';
import { answeringOutages, clientOptions } from './dependencies.ts';

/**
 * Reads the signing key secret (`ticketing/<stage>/signing-keys`) for the functions that
 * issue tokens: the only module that imports the Secrets Manager client, reached only from
 * shared/auth/signing-key.ts, so verify-only functions neither bundle nor load it.
 * Infra gives JWT_SIGNING_KEY_SECRET and GetSecretValue on that one secret only to rows
 * with `uses.signingKey`. Locally the SDK finds the stand-in (bin/local/secrets-manager.ts)
 * through AWS_ENDPOINT_URL_SECRETS_MANAGER.
 *
 * Both the section and the client are read lazily, at the first token a container signs:
 * tokens.ts (and so this module) is also imported by functions that only verify.
 */
const Settings = z.object({ JWT_SIGNING_KEY_SECRET: z.string().check(z.minLength(1)) });

let client: SecretsManagerClient | undefined;

/** The secret's id (name or ARN) this function reads. */
export const signingKeySecretId = (): string => requireSection('the signing key', Settings).JWT_SIGNING_KEY_SECRET;

/** The SecretString of the signing key secret, current version. */
export async function readSigningKeySecret(secretId = signingKeySecretId()): Promise<string> {
  // Timeouts (dependencies.ts), so a stalled call is retried rather than holding the login; an outage is a 503.
  client ??= answeringOutages(new SecretsManagerClient(clientOptions('secrets')), 'secrets');
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error(`The secret ${secretId} has no SecretString.`);
  return SecretString;
}

/** Tests point the environment at another stand-in between cases; the next read builds a new client. */
export function resetSigningKeySecretClientForTests(): void {
  client?.destroy();
  client = undefined;
}
