import { randomBytes } from 'node:crypto';
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  generateSigningKey,
  initialKeySet,
  parseKeySet,
  preparedKeySet,
  promotedKeySet,
  retiredKeySet,
  rotatedKeySet,
  signingKeySecretName,
  type KeySet,
  type PrivateJwk,
} from '#shared/auth/key-set';
import { initLocalStripeKeys } from './stripe.ts';

export { signingKeySecretName };

/**
 * `npm run keys`: the stage's signing key secret, through the real Secrets Manager client
 * (the stand-in locally). The transitions themselves are the pure functions of
 * shared/auth/key-set.ts; this is the thin layer that reads and writes the secret.
 * Also used by `npm start`, the test set-up and the bench, so local keys are made the
 * same way as a stage's.
 */
export type KeysCommand = 'init' | 'rotate' | 'prepare' | 'promote' | 'retire';

export interface KeysResult {
  secretId: string;
  /** The secret version now AWSCURRENT: bin/keys.ts pins it in the stage file (`secretVersions.signingKeys`). */
  versionId: string;
  keySet: KeySet;
}

async function readKeySet(client: SecretsManagerClient, secretId: string): Promise<KeySet> {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error(`The secret ${secretId} has no SecretString.`);
  return parseKeySet(SecretString);
}

async function writeKeySet(client: SecretsManagerClient, secretId: string, keySet: KeySet): Promise<KeysResult> {
  const { VersionId } = await client.send(
    new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(keySet) }),
  );
  return { secretId, versionId: VersionId!, keySet };
}

/**
 * Runs one command on the stage's secret. `init` fails when the secret exists (rotate
 * it instead); the others fail when it does not.
 */
export async function runKeysCommand(
  client: SecretsManagerClient,
  command: KeysCommand,
  stage: string,
  newKey: () => Promise<PrivateJwk> = generateSigningKey,
): Promise<KeysResult> {
  const secretId = signingKeySecretName(stage);
  switch (command) {
    case 'init': {
      const keySet = initialKeySet(await newKey());
      const { VersionId } = await client.send(
        new CreateSecretCommand({
          Name: secretId,
          Description: `ticketing-${stage}: ES256 keys of the service's tokens (npm run keys; README "Rotating the signing key")`,
          SecretString: JSON.stringify(keySet),
        }),
      );
      return { secretId, versionId: VersionId!, keySet };
    }
    case 'rotate':
      return writeKeySet(client, secretId, rotatedKeySet(await readKeySet(client, secretId), await newKey()));
    case 'prepare':
      return writeKeySet(client, secretId, preparedKeySet(await readKeySet(client, secretId), await newKey()));
    case 'promote':
      return writeKeySet(client, secretId, promotedKeySet(await readKeySet(client, secretId)));
    case 'retire':
      return writeKeySet(client, secretId, retiredKeySet(await readKeySet(client, secretId)));
  }
}

/** What a function needs to verify and (if it issues) sign with this key set. */
export const signingKeyEnv = ({
  secretId,
  keySet,
}: Pick<KeysResult, 'secretId' | 'keySet'>): Record<string, string> => ({
  JWT_PUBLIC_KEYS: keySet.jwks,
  JWT_SIGNING_KEY_SECRET: secretId,
});

/** The local stand-in's key sealing webhooks' signing secrets (deployed: infra/webhook-secrets-key.ts, by ARN). */
export const webhookSecretsKeyName = (stage: string): string => `ticketing/${stage}/webhook-secrets-key`;

/**
 * `keys init` against the local stand-in (`npm start`, the tests, the bench): a fresh key (and a webhook secrets key,
 * and the Stripe stand-in's keys when given) per run, and the environment that points the functions at them.
 */
export async function initLocalSigningKeys(
  services: {
    endpoints: { secretsManager: string };
    env: Record<string, string>;
    payments?: Parameters<typeof initLocalStripeKeys>[1];
  },
  stage: string,
  newKey?: () => Promise<PrivateJwk>,
): Promise<Record<string, string>> {
  const client = new SecretsManagerClient({
    endpoint: services.endpoints.secretsManager,
    region: services.env.AWS_REGION,
    credentials: { accessKeyId: services.env.AWS_ACCESS_KEY_ID!, secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY! },
  });
  try {
    const env = signingKeyEnv(await runKeysCommand(client, 'init', stage, newKey));
    // The key sealing webhooks' signing secrets, shaped as infra/webhook-secrets-key.ts generates it.
    const webhookKey = webhookSecretsKeyName(stage);
    await client.send(
      new CreateSecretCommand({
        Name: webhookKey,
        SecretString: JSON.stringify({ current: 'k1', k1: randomBytes(48).toString('base64url') }),
      }),
    );
    // The Stripe stand-in's keys, stored as `npm run keys -- stripe` stores a stage's.
    const stripeEnv = services.payments ? await initLocalStripeKeys(client, services.payments, stage) : {};
    return { ...env, SEALING_KEY_SECRET: webhookKey, ...stripeEnv };
  } finally {
    client.destroy();
  }
}
