import {
  CreateSecretCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { stripeSecretName } from '#shared/selling/domain/payment-processor';

/**
 * `npm run keys -- stripe --stage <name>`: stores the stage's Stripe secret key and webhook secret as the
 * secret `ticketing/<stage>/stripe` (`{secretKey, webhookSecret}`), read at run time by the payment rows
 * (shared/selling/services/payments.ts). The values come from STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET or from
 * stdin (two lines: the secret key, then the webhook secret), never from the command line (it would stay in
 * the shell's history and the process list), and are never printed. The publishable key is the stage
 * file's `payments.stripePublishableKey`. Also how `npm start` and the tests store the stand-in's keys.
 */
export interface StripeSecretValue {
  secretKey: string;
  webhookSecret: string;
}

const SECRET_KEY = /^(sk|rk)_(test|live)_\w+$/;
const WEBHOOK_SECRET = /^whsec_\w+$/;

/** The two values from the environment, else from stdin's text; a message naming what is wrong, never the value. */
export function stripeSecretInput(env: NodeJS.ProcessEnv, stdin: () => string): StripeSecretValue {
  let secretKey = env.STRIPE_SECRET_KEY;
  let webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  if (!secretKey || !webhookSecret) {
    const lines = stdin()
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    [secretKey, webhookSecret] = [secretKey ?? lines[0], webhookSecret ?? lines[secretKey ? 0 : 1]];
  }
  if (!secretKey || !SECRET_KEY.test(secretKey))
    throw new Error(
      'The Stripe secret key (STRIPE_SECRET_KEY or the first line of stdin) must look like sk_test_… or sk_live_….',
    );
  if (!webhookSecret || !WEBHOOK_SECRET.test(webhookSecret))
    throw new Error('The webhook secret (STRIPE_WEBHOOK_SECRET or the next line of stdin) must look like whsec_….');
  return { secretKey, webhookSecret };
}

/** Creates the stage's Stripe secret, or puts a new version of it; answers its name and the new version. */
export async function putStripeSecret(
  client: SecretsManagerClient,
  stage: string,
  value: StripeSecretValue,
): Promise<{ secretId: string; versionId: string }> {
  const secretId = stripeSecretName(stage);
  const SecretString = JSON.stringify(value);
  try {
    const { VersionId } = await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString }));
    return { secretId, versionId: VersionId! };
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    const { VersionId } = await client.send(
      new CreateSecretCommand({
        Name: secretId,
        Description: `ticketing-${stage}: Stripe secret key and webhook secret (npm run keys -- stripe)`,
        SecretString,
      }),
    );
    return { secretId, versionId: VersionId! };
  }
}

/**
 * The Stripe stand-in's keys as the local stage's secret (`npm start`, the tests), stored as `keys stripe`
 * stores a real stage's, and the environment that points the payment rows at them.
 */
export async function initLocalStripeKeys(
  client: SecretsManagerClient,
  standIn: { keys: StripeSecretValue & { publishableKey: string } },
  stage: string,
): Promise<Record<string, string>> {
  const { secretKey, webhookSecret, publishableKey } = standIn.keys;
  const { secretId } = await putStripeSecret(client, stage, { secretKey, webhookSecret });
  return { STRIPE_SECRET: secretId, STRIPE_PUBLISHABLE_KEY: publishableKey };
}
