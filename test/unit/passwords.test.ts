import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '#shared/auth/passwords';

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
});
