import { describe, expect, it } from 'vitest';
import { parsePublicJwks } from '#shared/public-keys';
import {
  generateSigningKey,
  initialKeySet,
  parseKeySet,
  preparedKeySet,
  promotedKeySet,
  publicHalf,
  retiredKeySet,
  rotatedKeySet,
  signingKeySecretName,
} from '#shared/auth/key-set';

/** The signing key set's transitions (`npm run keys`), as pure functions on the secret's JSON. */
const kids = (jwks: string) => parsePublicJwks(jwks).keys.map((key) => key.kid);

describe('the signing key set', () => {
  it('generates P-256 keys with a dated, distinct kid and publishes only their public half', async () => {
    const a = await generateSigningKey(new Date('2026-03-04T05:06:07Z'));
    const b = await generateSigningKey(new Date('2026-03-04T05:06:07Z'));
    expect(a).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', d: expect.any(String) });
    expect(a.kid).toMatch(/^2026-03-04-[\w-]{12}$/);
    expect(a.kid).not.toBe(b.kid);
    const set = initialKeySet(a);
    expect(set.keys).toEqual([a]);
    expect(set.jwks).not.toContain('"d"');
    expect(parsePublicJwks(set.jwks).keys).toEqual([publicHalf(a)]);
  });

  it('rotates: the new key first (current), every earlier one kept behind it', async () => {
    const [a, b, c] = await Promise.all([generateSigningKey(), generateSigningKey(), generateSigningKey()]);
    const set = rotatedKeySet(rotatedKeySet(initialKeySet(a!), b!), c!);
    expect(set.keys.map((key) => key.kid)).toEqual([c!.kid, b!.kid, a!.kid]);
    expect(kids(set.jwks)).toEqual([c!.kid, b!.kid, a!.kid]);
  });

  it('refuses to rotate to a key whose kid is already in the set', async () => {
    const a = await generateSigningKey();
    expect(() => rotatedKeySet(initialKeySet(a), { ...a })).toThrow(/already in the set/);
  });

  it('prepares a key behind the current one, then promotes it, keeping the old one accepted', async () => {
    const [a, b, c] = await Promise.all([generateSigningKey(), generateSigningKey(), generateSigningKey()]);
    const prepared = preparedKeySet(rotatedKeySet(initialKeySet(a!), b!), c!);
    expect(kids(prepared.jwks)).toEqual([b!.kid, c!.kid, a!.kid]);
    const promoted = promotedKeySet(prepared);
    expect(promoted.keys.map((key) => key.kid)).toEqual([c!.kid, b!.kid, a!.kid]);
    expect(kids(promoted.jwks)).toEqual([c!.kid, b!.kid, a!.kid]);
    expect(() => promotedKeySet(initialKeySet(a!))).toThrow(/no second key/);
    expect(() => preparedKeySet(initialKeySet(a!), { ...a! })).toThrow(/already in the set/);
  });

  it('retires every key but the current one', async () => {
    const [a, b] = await Promise.all([generateSigningKey(), generateSigningKey()]);
    const set = retiredKeySet(rotatedKeySet(initialKeySet(a!), b!));
    expect(set.keys).toEqual([b]);
    expect(kids(set.jwks)).toEqual([b!.kid]);
  });

  it('reads back what it writes, and refuses a secret whose jwks does not match its keys', async () => {
    const [a, b] = await Promise.all([generateSigningKey(), generateSigningKey()]);
    const set = rotatedKeySet(initialKeySet(a!), b!);
    expect(parseKeySet(JSON.stringify(set))).toEqual(set);
    const reordered = { keys: [a, b], jwks: set.jwks };
    expect(() => parseKeySet(JSON.stringify(reordered))).toThrow(/inconsistent/);
    const withoutPrivate = { keys: [publicHalf(a!)], jwks: initialKeySet(a!).jwks };
    expect(() => parseKeySet(JSON.stringify(withoutPrivate))).toThrow(/malformed/);
  });

  it('accepts only a JWKS of ES256 P-256 keys with distinct kids', async () => {
    const a = publicHalf(await generateSigningKey());
    expect(() => parsePublicJwks('not json')).toThrow(/not JSON/);
    expect(() => parsePublicJwks(JSON.stringify({ keys: [] }))).toThrow();
    expect(() => parsePublicJwks(JSON.stringify({ keys: [{ ...a, alg: 'HS256' }] }))).toThrow();
    expect(() => parsePublicJwks(JSON.stringify({ keys: [{ ...a, kid: undefined }] }))).toThrow();
    expect(() => parsePublicJwks(JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'x' }] }))).toThrow();
    expect(() => parsePublicJwks(JSON.stringify({ keys: [a, a] }))).toThrow(/own kid/);
    expect(parsePublicJwks(JSON.stringify({ keys: [a] })).keys).toEqual([a]);
  });

  it('names one secret per stage', () => {
    expect(signingKeySecretName('prod')).toBe('ticketing/prod/signing-keys');
  });
});
