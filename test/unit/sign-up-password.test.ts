import { describe, expect, it } from 'vitest';
import { SignUpInput } from '#shared/identity/domain/sign-up';
import { PASSWORD_POLICY } from '../../infra/identity-provider.ts';

const accepts = (password: string) => SignUpInput.safeParse({ email: 'a@b.test', name: 'A', password }).success;

/** The sign-up checks what the customers' pool would (infra/customer-identity.ts uses PASSWORD_POLICY), for every address alike. */
describe("the sign-up's password rule", () => {
  it('is the pool policy: its length and each character class it requires', () => {
    expect(PASSWORD_POLICY).toMatchObject({
      requireDigits: true,
      requireLowercase: true,
      requireUppercase: true,
      requireSymbols: true,
    });
    const good = 'Abcdefgh-123';
    expect(good.length).toBe(PASSWORD_POLICY.minLength);
    expect(accepts(good)).toBe(true);
    expect(accepts(good.slice(1))).toBe(false);
    for (const weaker of ['abcdefgh-123', 'ABCDEFGH-123', 'Abcdefgh-xyz', 'Abcdefgh1234'])
      expect(accepts(weaker), weaker).toBe(false);
  });

  it('accepts each symbol Cognito counts, and refuses a leading or trailing space', () => {
    for (const symbol of '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-')
      expect(accepts(`Abcdefgh123${symbol}`), symbol).toBe(true);
    expect(accepts(' Abcdefgh-123')).toBe(false);
    expect(accepts('Abcdefgh-123 ')).toBe(false);
  });
});
