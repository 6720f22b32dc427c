import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pkceChallenge, registeredLogoutUrls, vendorRejectionUrl, withErrorCode } from '#shared/auth/oidc';

describe('OpenID Connect sign-in: PKCE, error redirects and logout URLs', () => {
  it('derives the PKCE S256 challenge as the unpadded base64url SHA-256 of the verifier', () => {
    const verifier = 'a-verifier-of-forty-three-characters-or-more';
    expect(pkceChallenge(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(pkceChallenge(verifier)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('adds the error code to a URL, keeping its own query', () => {
    expect(withErrorCode('https://admin.example/after?tab=1', 'unknown_user')).toBe(
      'https://admin.example/after?tab=1&error_code=unknown_user',
    );
    expect(vendorRejectionUrl('https://admin.example')).toBe('https://admin.example/?error_code=not_vendor_user');
  });

  it('registers exactly the allowed origins, the admin UI and the vendor landing page as logout URLs', () => {
    expect(registeredLogoutUrls(['https://a.example', 'https://b.example'], 'https://a.example/app')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://a.example/',
      'https://b.example/',
      'https://a.example/app',
      'https://a.example/app?error_code=not_vendor_user',
    ]);
  });
});
