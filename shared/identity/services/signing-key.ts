import type { webcrypto } from 'node:crypto';
import { importJWK } from 'jose';
import { config } from '../../config.ts';
import { readSigningKeySecret } from './signing-key-secret.ts';
import { ALGORITHM } from '../../public-keys.ts';
import { parseKeySet } from '../../auth/key-set.ts';
import { keptPerContainer } from '../../container-state.ts';

/**
 * The private key new tokens are signed with, for the functions that issue them (rows
 * with `uses.signingKey`). Which key: the one whose `kid` is FIRST in JWT_PUBLIC_KEYS,
 * not the first in the secret. So a rotation takes effect everywhere at the one deploy
 * that changes JWT_PUBLIC_KEYS, and a signer never uses a key the verifiers (same deploy,
 * same JWKS) do not know yet: `keys rotate` only adds a key to the secret.
 *
 * The secret is fetched once per container and the imported keys kept; it is fetched
 * again only when the wanted kid is missing from what was fetched (a deploy can name a
 * key the container's copy predates only in tests, where the environment changes in place).
 */
export interface SigningKey {
  kid: string;
  key: webcrypto.CryptoKey;
}

let fetched: Promise<Map<string, webcrypto.CryptoKey>> | undefined;

async function fetchKeys(): Promise<Map<string, webcrypto.CryptoKey>> {
  const { keys } = parseKeySet(await readSigningKeySecret());
  const imported = await Promise.all(
    keys.map(async (jwk) => [jwk.kid, (await importJWK(jwk, ALGORITHM)) as webcrypto.CryptoKey] as const),
  );
  return new Map(imported);
}

async function privateKeys(refresh: boolean): Promise<Map<string, webcrypto.CryptoKey>> {
  if (refresh) fetched = undefined;
  fetched ??= fetchKeys();
  const pending = fetched;
  // A failed fetch is not kept: the next login tries again.
  pending.catch(() => {
    if (fetched === pending) fetched = undefined;
  });
  return pending;
}

/** The current signing key: the private half of the first key of JWT_PUBLIC_KEYS. */
export async function currentSigningKey(): Promise<SigningKey> {
  const kid = config().JWT_PUBLIC_KEYS.keys[0]!.kid;
  let key = (await privateKeys(false)).get(kid);
  if (!key) key = (await privateKeys(true)).get(kid);
  if (!key) {
    throw new Error(
      `The signing key secret has no private key with kid ${kid} (the first key of JWT_PUBLIC_KEYS): run \`npm run keys\` for this stage, then deploy.`,
    );
  }
  return { kid, key };
}

// A new container fetches the secret again (tests rotate keys in place).
keptPerContainer(() => {
  fetched = undefined;
});
