import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openWith, SecretUnreadable, sealWith } from '#shared/webhooks/services/webhook-secret-box';

/**
 * Secrets in one format (functions/jobs/README.md "Secrets"): only a v1 sealed secret with a 12-byte IV
 * and a full 16-byte GCM tag opens; plain text, short tags and other shapes are refused, saying why without the value
 * (what the attempt records and logs: webhooks-secrets.test.ts).
 */
const SECRET = 'whsec_dGhlLXNpZ25pbmctc2VjcmV0LW9mLXRoaXMtdGVzdA==';
const KEY = { kid: 'k1', key: randomBytes(32) };
const KEYS = new Map([[KEY.kid, KEY.key]]);
const WEBHOOK = 7;

/** A ciphertext of SECRET for WEBHOOK as GCM gives it with a tag of `tagBytes` (GCM allows 4, 8 and 12–16). */
function sealedWithTag(tagBytes: number) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', KEY.key, iv, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(`webhook:${WEBHOOK}`));
  const data = Buffer.concat([cipher.update(SECRET, 'utf8'), cipher.final()]);
  return {
    enc: 'v1',
    kid: KEY.kid,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/** What opening `stored` was refused with: the message, and the whole error as it would be logged. */
function refusal(stored: unknown, webhookId = WEBHOOK): { message: string; logged: string[] } {
  try {
    openWith(KEYS, stored, webhookId);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretUnreadable);
    const { message, name } = error as Error;
    return { message, logged: [JSON.stringify({ name, message, ...(error as object) })] };
  }
  throw new Error('it opened');
}

describe('openWith', () => {
  it('opens a sealed secret with the full 16-byte tag, for its own subscription only', () => {
    const sealed = sealWith(KEY, SECRET, WEBHOOK);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(openWith(KEYS, sealed, WEBHOOK)).toBe(SECRET);
    expect(openWith(KEYS, sealedWithTag(16), WEBHOOK)).toBe(SECRET);
    expect(refusal(sealed, WEBHOOK + 1).message).toMatch(/does not authenticate for this webhook/);
  });

  it('refuses plain text, saying so with the subscription, never the value', () => {
    const { message, logged } = refusal(SECRET);
    expect(message).toBe(
      `the signing secret of webhook ${WEBHOOK} cannot be decrypted: it is plain text, not a sealed secret`,
    );
    expect(logged[0]).toContain(`webhook ${WEBHOOK}`);
    for (const trace of [SECRET, SECRET.slice(6), SECRET.slice(6, 20)]) expect(logged[0]).not.toContain(trace);
  });

  it('refuses every tag shorter than 16 bytes that GCM would otherwise verify, logging no part of it', () => {
    // GCM's shorter tag lengths (NIST SP 800-38D): each verifies the right ciphertext when the decipher asks for it.
    for (const bytes of [4, 8, 12, 13, 14, 15]) {
      const short = sealedWithTag(bytes);
      const { message, logged } = refusal(short);
      expect(message).toMatch(new RegExp(`its tag is ${bytes} bytes, not 16`));
      for (const part of [short.tag, short.data, short.iv]) expect(logged.join()).not.toContain(part);
    }
    // A full tag cut short is refused the same way (not tried against the key).
    const cut = { ...sealWith(KEY, SECRET, WEBHOOK) };
    cut.tag = Buffer.from(cut.tag, 'base64').subarray(0, 8).toString('base64');
    expect(refusal(cut).message).toMatch(/its tag is 8 bytes, not 16/);
  });

  it('refuses any other shape: another format, no key, an unknown key, a wrong IV, loose base64, not an object', () => {
    const sealed = sealWith(KEY, SECRET, WEBHOOK);
    const cases: [unknown, RegExp][] = [
      [{ ...sealed, enc: 'v2' }, /not sealed in the v1 format/],
      [{ ...sealed, kid: '' }, /names no key/],
      [{ ...sealed, kid: 'k9' }, /key k9 is not held/],
      [{ ...sealed, iv: randomBytes(16).toString('base64') }, /its iv is 16 bytes, not 12/],
      [{ ...sealed, tag: `${sealed.tag.slice(0, -2)}!!` }, /not base64/],
      [{ ...sealed, data: 42 }, /not base64/],
      [null, /not a sealed secret/],
      [42, /not a sealed secret/],
      [[SECRET], /not sealed in the v1 format/],
    ];
    for (const [stored, why] of cases) {
      const { message, logged } = refusal(stored);
      expect(message).toMatch(why);
      expect(logged.join()).not.toContain(SECRET);
    }
  });
});
