import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '#shared/auth/passwords';
import { passwordProblems } from '#shared/identity/domain/password-policy';

describe('password hashing', () => {
  it('stores a salted scrypt hash in PHC form', async () => {
    const one = await hashPassword('correct horse battery staple');
    const two = await hashPassword('correct horse battery staple');
    expect(one).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(one).not.toBe(two);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('s3cret-Passw0rd');
    expect(await verifyPassword('s3cret-Passw0rd', stored)).toBe(true);
    expect(await verifyPassword('s3cret-passw0rd', stored)).toBe(false);
  });

  it('never matches a malformed or foreign hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', '$2a$10$abcdefghijklmnopqrstuu')).toBe(false);
  });

  it.each(['2a', '2b', '2y'])('verifies legacy bcrypt $%s$ hashes and asks for a rehash', async (version) => {
    const stored = bcrypt.hashSync('old-system-password', 4).replace(/^\$2[aby]\$/, `$${version}$`);
    expect(await verifyPassword('old-system-password', stored)).toBe(true);
    expect(await verifyPassword('old-system-passwore', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('does not ask to rehash a current scrypt hash', async () => {
    expect(needsRehash(await hashPassword('correct horse battery staple'))).toBe(false);
    expect(needsRehash('$scrypt$ln=14,r=8,p=1$c2FsdA$aGFzaA')).toBe(true);
  });
});

describe('password policy', () => {
  it('accepts 12 to 1024 characters that differ from the old password', () => {
    expect(passwordProblems('twelve-chars', 'body.newPassword', 'something-else')).toEqual([]);
    expect(passwordProblems('x'.repeat(1024), 'body.newPassword')).toEqual([]);
  });

  it('refuses a short, an overlong or an unchanged password, naming the field', () => {
    expect(passwordProblems('eleven-char', 'body.newPassword')).toEqual([
      { path: 'body.newPassword', message: expect.stringMatching(/at least 12/) },
    ]);
    expect(passwordProblems('x'.repeat(1025), 'body.newPassword')[0]?.message).toMatch(/at most 1024/);
    expect(passwordProblems('same-password-123', 'body.newPassword', 'same-password-123')[0]?.message).toMatch(
      /differ/,
    );
  });
});
