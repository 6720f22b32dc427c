import { createHash } from 'node:crypto';
import { API_PREFIX } from '../api-prefix.ts';

/**
 * Pure pieces of the OIDC login shared by the functions and infra/ (which registers the
 * same logout URLs on the Cognito app client: Cognito's `/logout` accepts only a
 * `logout_uri` registered verbatim).
 */

/** PKCE S256: the challenge sent to the authorize endpoint for a verifier kept server-side. */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** `url` with `error_code` set: how the callback tells the admin UI what went wrong. */
export function withErrorCode(url: string, code: string): string {
  const target = new URL(url);
  target.searchParams.set('error_code', code);
  return target.toString();
}

/** Where a rejected vendor-channel user lands after the provider's logout. */
export const vendorRejectionUrl = (adminUiUrl: string): string => withErrorCode(adminUiUrl, 'not_vendor_user');

/**
 * The only `return_to` values POST /auth/logout accepts, and the app client's logout
 * URLs: the allowed origins (with or without the trailing slash), the admin UI URL and
 * the vendor-rejection landing URL.
 */
export function registeredLogoutUrls(allowedOrigins: readonly string[], adminUiUrl: string): string[] {
  return [
    ...new Set([
      ...allowedOrigins,
      ...allowedOrigins.map((origin) => `${origin}/`),
      adminUiUrl,
      vendorRejectionUrl(adminUiUrl),
    ]),
  ];
}

/**
 * The identity provider's `redirect_uri` for a login started on `origin` (a front end's
 * origin): the API's callback as that front end proxies it (`/api/*` on the same origin),
 * so the session cookie the callback sets is first-party there.
 */
export const callbackUrlFor = (origin: string): string => `${new URL(origin).origin}${API_PREFIX}/auth/callback`;

/** The app client's callback URLs: one per allowed origin (Cognito accepts only registered ones, verbatim). */
export const registeredCallbackUrls = (allowedOrigins: readonly string[]): string[] => [
  ...new Set(allowedOrigins.map(callbackUrlFor)),
];
