/**
 * `npm run keys -- init|rotate|prepare|promote|retire --stage <name> [--region <r>] [--endpoint <url>]` (the region
 * defaults to the one the stage file pins):
 * creates, rotates or trims the stage's signing key secret `ticketing/<stage>/signing-keys`
 * (README "Rotating the signing key"). Uses the deploying credentials; `--endpoint` points
 * it at another Secrets Manager, e.g. the local stand-in.
 * `npm run keys -- pin-origin-verify --stage <name> --version <VersionId>`: pins the
 * origin-verify secret's version CloudFront sends (README "Rotating the origin-verify value").
 * `npm run keys -- stripe --stage <name>`: the stage's Stripe secret key and webhook secret, from
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET or stdin, never argv, never printed (bin/keys/stripe.ts).
 *
 *   init    one new key (before the first deploy of a stage)
 *   rotate   a new current key; the old one stays, still accepted
 *   prepare  a new key published behind the current one (accepted, not yet signing)...
 *   promote  ...made current once deployed: a rotation with no gap during the deploy
 *   retire   drop every key but the current one (once no token of the old one can be alive)
 *
 * Each writes the secret's new version into the stage file (infra/stages/<stage>.ts
 * `secretVersions`): commit it and deploy, and CloudFormation re-reads the public keys into
 * every function; every later deploy from the repository keeps that version.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { STAGE_NAMES } from '../infra/stages/schema.ts';
import { runKeysCommand, type KeysCommand } from './keys/commands.ts';
import { keysRegion, pinInStageFile } from './keys/stage-file.ts';
import { putStripeSecret, stripeSecretInput } from './keys/stripe.ts';

const COMMANDS: readonly KeysCommand[] = ['init', 'rotate', 'prepare', 'promote', 'retire'];
const usage = [
  `usage: npm run keys -- ${COMMANDS.join('|')} --stage <name> [--region <region>] [--endpoint <url>]`,
  '       npm run keys -- pin-origin-verify --stage <name> --version <VersionId>',
  '       npm run keys -- stripe --stage <name> [--region <region>] [--endpoint <url>]   (values: env or stdin)',
].join('\n');

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    stage: { type: 'string' },
    region: { type: 'string' },
    endpoint: { type: 'string' },
    version: { type: 'string' },
  },
});
const command = positionals[0] as KeysCommand | 'pin-origin-verify' | 'stripe' | undefined;
const known = command === 'pin-origin-verify' || command === 'stripe' || COMMANDS.includes(command as KeysCommand);
if (!command || !known || positionals.length > 1 || !values.stage) {
  console.error(usage);
  process.exit(2);
}
// A deployed stage's file pins the versions; the local stand-in's stages have no file.
const committed = (STAGE_NAMES as readonly string[]).includes(values.stage) && !values.endpoint;
if (command === 'pin-origin-verify') {
  if (!values.version || !committed) {
    console.error(usage);
    process.exit(2);
  }
  const file = pinInStageFile(values.stage, 'originVerify', values.version);
  console.log(`Pinned the origin-verify version ${values.version} in ${file}: commit it, then deploy the stage.`);
  process.exit(0);
}

const endpoint = values.endpoint;
// The local stand-in checks no signature, but the SDK wants some credentials to sign with.
const local = endpoint !== undefined && ['127.0.0.1', 'localhost'].includes(new URL(endpoint).hostname);
const region = local ? (values.region ?? 'us-east-1') : keysRegion(values.stage, values.region);
if (region && !values.region && !local)
  console.error(`Stage ${values.stage}: its secret is in ${region} (its stage file's region)`);
const client = new SecretsManagerClient({
  ...(region ? { region } : {}),
  ...(endpoint ? { endpoint } : {}),
  ...(local && !process.env.AWS_ACCESS_KEY_ID
    ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : {}),
});

if (command === 'stripe') {
  try {
    const value = stripeSecretInput(process.env, () => readFileSync(0, 'utf8'));
    const { secretId, versionId } = await putStripeSecret(client, values.stage, value);
    console.log(`stripe: ${secretId} version ${versionId} (the payment functions read it at their next cold start).`);
  } catch (error) {
    console.error(`keys stripe failed: ${(error as Error).name}: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    client.destroy();
  }
  process.exit();
}

try {
  const { secretId, versionId, keySet } = await runKeysCommand(client, command as KeysCommand, values.stage);
  const [current, ...previous] = keySet.keys.map((key) => key.kid);
  console.log(
    [
      `${command}: ${secretId} version ${versionId}`,
      `  current key   ${current}`,
      `  previous keys ${previous.length ? previous.join(', ') : '(none)'}`,
      committed
        ? `Pinned in ${pinInStageFile(values.stage, 'signingKeys', versionId)}: commit it, then deploy the stage.`
        : `The local stack reads the keys at start.`,
    ].join('\n'),
  );
} catch (error) {
  console.error(`keys ${command} failed: ${(error as Error).name}: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  client.destroy();
}
