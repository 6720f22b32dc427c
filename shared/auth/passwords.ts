import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * Password hashes as PHC-style strings: `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64,
 * no padding). The parameters travel with the hash, so they can be raised later and
 * old hashes still verify.
 */
const PARAMS = { ln: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: typeof PARAMS): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** params.ln,
    r: params.r,
    p: params.p,
    maxmem: 256 * 2 ** params.ln * params.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, PARAMS);
  return `$scrypt$ln=${PARAMS.ln},r=${PARAMS.r},p=${PARAMS.p}$${b64(salt)}$${b64(hash)}`;
}

const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Hashes imported from the old system: bcrypt, any of its version prefixes. */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * Constant-time check of a password against a stored hash; a malformed hash never
 * matches. Legacy bcrypt hashes verify too; `needsRehash` then says to store a new one.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (BCRYPT.test(stored)) return bcrypt.compare(password, stored);
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, ln, r, p, salt, hash] = match;
  const expected = Buffer.from(hash!, 'base64');
  const actual = await derive(password, Buffer.from(salt!, 'base64'), { ln: Number(ln), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a hash that just verified should be replaced by a fresh scrypt hash (legacy bcrypt, or older parameters). */
export function needsRehash(stored: string): boolean {
  const match = PHC.exec(stored);
  return !match || Number(match[1]) !== PARAMS.ln || Number(match[2]) !== PARAMS.r || Number(match[3]) !== PARAMS.p;
}

/** A real hash of a random password, so an unknown login costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;
export async function spendVerificationTime(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}
