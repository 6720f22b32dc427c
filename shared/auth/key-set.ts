import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import * as z from '../schema.ts';
import { ALGORITHM, parsePublicJwks, PublicJwk } from '../public-keys.ts';

/**
 * The service's signing keys as stored in Secrets Manager (`ticketing/<stage>/signing-keys`,
 * README "Rotating the signing key"): the private JWKs and, beside them, the public JWKS
 * every function verifies with (env JWT_PUBLIC_KEYS, a dynamic reference to `jwks`).
 * The first key is the current one: new tokens are signed with it. Any others are
 * previous keys, still accepted until retired, so a rotation signs nobody out.
 *
 * Pure transitions (init, rotate, retire) plus key generation; the Secrets Manager calls
 * live in bin/keys/ (writing) and shared/identity/services/signing-key-secret.ts (reading).
 */
/** Team convention: one secret per stage, created before the first deploy, never deleted with the stack. */
export const signingKeySecretName = (stage: string): string => `ticketing/${stage}/signing-keys`;

const PrivateJwk = z.lazy(() => z.object({ ...PublicJwk.shape, d: z.string().check(z.minLength(1)) }));
export type PrivateJwk = z.infer<typeof PrivateJwk>;

/** The secret's JSON: `jwks` is itself a JSON string, so CloudFormation can hand it over as one env value. */
const SecretShape = z.lazy(() => z.object({ keys: z.array(PrivateJwk).check(z.minLength(1)), jwks: z.string() }));
export interface KeySet {
  keys: PrivateJwk[];
  /** The public JWKS as a JSON string, in the order of `keys` (current first). */
  jwks: string;
}

/** Parses the secret string; checks that `jwks` lists exactly the public halves of `keys`, in order. */
export function parseKeySet(secretString: string): KeySet {
  const result = SecretShape.safeParse(JSON.parse(secretString));
  if (!result.success)
    throw new Error(
      `The signing key secret is malformed: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  const { keys, jwks } = result.data;
  const published = parsePublicJwks(jwks).keys.map((key) => key.kid);
  if (published.join('\n') !== keys.map((key) => key.kid).join('\n')) {
    throw new Error(
      'The signing key secret is inconsistent: `jwks` must list the public halves of `keys`, in the same order.',
    );
  }
  return { keys, jwks };
}

/** The public half of a private JWK: every field but `d`. */
export function publicHalf({ d: _private, ...rest }: PrivateJwk): PublicJwk {
  return rest;
}

function withJwks(keys: PrivateJwk[]): KeySet {
  return { keys, jwks: JSON.stringify({ keys: keys.map(publicHalf) }) };
}

/** `keys init`: one key, the current one. */
export const initialKeySet = (key: PrivateJwk): KeySet => withJwks([key]);

/** `keys rotate`: the new key becomes current; every key so far stays, accepted, behind it. */
export function rotatedKeySet(set: KeySet, key: PrivateJwk): KeySet {
  if (set.keys.some((existing) => existing.kid === key.kid))
    throw new Error(`A key with kid ${key.kid} is already in the set.`);
  return withJwks([key, ...set.keys]);
}

/**
 * `keys prepare`: the new key is published right behind the current one, accepted but not
 * yet used to sign; `keys promote` makes it current once every function knows it.
 */
export function preparedKeySet(set: KeySet, key: PrivateJwk): KeySet {
  if (set.keys.some((existing) => existing.kid === key.kid))
    throw new Error(`A key with kid ${key.kid} is already in the set.`);
  const [current, ...others] = set.keys;
  return withJwks([current!, key, ...others]);
}

/** `keys promote`: the second key (the prepared one) becomes current; the old current stays, accepted. */
export function promotedKeySet(set: KeySet): KeySet {
  const [current, next, ...others] = set.keys;
  if (!next) throw new Error('There is no second key to promote: run `keys prepare` (or `keys rotate`) first.');
  return withJwks([next, current!, ...others]);
}

/** `keys retire`: only the current key stays; tokens signed by the others stop verifying. */
export const retiredKeySet = (set: KeySet): KeySet => withJwks(set.keys.slice(0, 1));

/**
 * A new P-256 key pair as a private JWK. Its `kid` is the creation date plus the start of
 * its RFC 7638 thumbprint: sortable for an operator, unique without coordination.
 */
export async function generateSigningKey(createdAt = new Date()): Promise<PrivateJwk> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const thumbprint = await calculateJwkThumbprint(jwk);
  const kid = `${createdAt.toISOString().slice(0, 10)}-${thumbprint.slice(0, 12)}`;
  return PrivateJwk.parse({ ...jwk, kid, alg: ALGORITHM, use: 'sig' });
}
