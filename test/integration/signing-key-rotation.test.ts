import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../bin/keys/commands.ts';
import type { Administrator } from '#shared/identity/domain/administrator';
import { call } from '../support/api.ts';
import { makeAdmin, signIn } from '../support/staff.ts';
import { newContainer } from '../support/container.ts';

/**
 * README "Rotating the signing key", end to end against the Secrets Manager stand-in:
 * `keys init`, `keys rotate` (through the CLI), `keys retire`, each followed by what a
 * deploy does to a function (a new JWT_PUBLIC_KEYS from the secret's `jwks`). Its own
 * stage's secret and this worker's environment only, so other test files keep theirs.
 */
const run = promisify(execFile);
const STAGE = `rotation-${randomUUID().slice(0, 8)}`;
const PASSWORD = 'a-long-enough-password';
const saved = {
  JWT_PUBLIC_KEYS: process.env.JWT_PUBLIC_KEYS,
  JWT_SIGNING_KEY_SECRET: process.env.JWT_SIGNING_KEY_SECRET,
};
let client: SecretsManagerClient;
let staff: Administrator;
let secretId: string;

/** What a deploy with the pinned signing-key version gives every function: the secret's current public JWKS. */
async function deploy(): Promise<string[]> {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  const { jwks } = JSON.parse(SecretString!) as { jwks: string };
  process.env.JWT_PUBLIC_KEYS = jwks;
  newContainer();
  return (JSON.parse(jwks) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);
}

const kidOf = (token: string) =>
  (JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[0]!))) as { kid: string }).kid;
const meStatus = async (token: string) => (await call('GET', '/api/v2/auth/me', { token })).status;

beforeAll(async () => {
  client = new SecretsManagerClient({});
  staff = await makeAdmin({ password: PASSWORD });
  ({ secretId } = await runKeysCommand(client, 'init', STAGE));
  process.env.JWT_SIGNING_KEY_SECRET = secretId;
  newContainer();
  await deploy();
});

afterAll(() => {
  Object.assign(process.env, saved);
  newContainer();
  client.destroy();
});

describe('rotating the signing key', () => {
  it('signs nobody out on rotation, moves new tokens to the new key at the deploy, and refuses the old key once retired', async () => {
    const [first] = await deploy();
    const before = await signIn(staff, PASSWORD);
    expect(kidOf(before)).toBe(first);
    expect(await meStatus(before)).toBe(200);

    // `npm run keys -- rotate`: the new key goes into the secret first...
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bin/keys.ts',
        'rotate',
        '--stage',
        STAGE,
        '--endpoint',
        process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER!,
      ],
      {
        env: { ...process.env },
      },
    );
    // A stage without a committed file (this one, on the stand-in) pins nothing: its stack reads the keys at start.
    expect(stdout).toMatch(/^rotate: ticketing\/\S+\/signing-keys version \S+$/m);
    expect(stdout).toContain('The local stack reads the keys at start.');
    // ...but until the deploy, functions keep signing with the key their JWKS names first.
    expect(kidOf(await signIn(staff, PASSWORD))).toBe(first);

    const [second, previous] = await deploy();
    expect(previous).toBe(first);
    expect(second).not.toBe(first);
    // After the deploy: the token from before still works; new and refreshed tokens carry the new kid.
    expect(await meStatus(before)).toBe(200);
    const after = await signIn(staff, PASSWORD);
    expect(kidOf(after)).toBe(second);
    const refreshed = await call('POST', '/api/v2/auth/refresh', { token: before });
    expect(refreshed.status).toBe(200);
    expect(kidOf(refreshed.body.data.token as string)).toBe(second);

    // `keys retire` and its deploy: the old key's token is refused, though this container verified it a moment ago.
    await runKeysCommand(client, 'retire', STAGE);
    expect(await deploy()).toEqual([second]);
    expect(await meStatus(before)).toBe(401);
    expect(await meStatus(after)).toBe(200);
    expect(await meStatus(refreshed.body.data.token as string)).toBe(200);
    // Past the 20 s default: the rotation runs the CLI in a process of its own (tsx loading bin/keys.ts), which took
    // over 20 s on this 2-core machine with a second test worker beside it.
  }, 60_000);
});
