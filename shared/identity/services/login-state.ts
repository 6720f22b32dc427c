import { createHash, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { config } from '../../config.ts';
import { epochSeconds, now } from '../../clock.ts';
import { ALGORITHM } from '../../public-keys.ts';
import { currentSigningKey } from './signing-key.ts';
import { verificationKeys } from '../../auth/tokens.ts';
import { LOGIN_TTL_SECONDS } from '../../auth/login-lifetime.ts';

/**
 * The OIDC `state`: a short-lived ES256 JWT (the service's keys, its own audience, so it
 * can never pass as a session token) carrying what the callback needs: where to send the
 * browser, the nonce expected in the id token, the reference of the PKCE verifier kept
 * in the table, and the channel. It is tamper-proof but readable, so it holds no secret:
 * the verifier itself never leaves the server.
 *
 * It is also bound to the browser that started the login: POST /auth/login sets a random
 * value in a short-lived HttpOnly cookie (LOGIN_COOKIE in shared/http/cookies.ts) and the
 * state carries only its hash. The callback refuses a state whose browser does not hold
 * the value, so an attacker's own code and state, planted in a victim's browser, do not
 * log the victim in as the attacker (login CSRF).
 */
export type LoginChannel = 'normal' | 'vendor';

export interface LoginState {
  /**
   * The front-end page to land on. Its origin also fixes the provider's callback URL
   * (`callbackUrlFor` in oidc.ts), so the token exchange repeats the authorize request's.
   */
  redirectUri: string;
  nonce: string;
  ref: string;
  channel: LoginChannel;
  /** SHA-256 (base64url) of the login cookie's value set on the browser that started the login. */
  browser: string;
}

export const browserBinding = (cookieValue: string): string =>
  createHash('sha256').update(cookieValue).digest('base64url');

/** Whether the callback's browser holds the cookie the state was bound to (constant-time compare). */
export function sameBrowser(state: LoginState, cookieValue: string | undefined): boolean {
  if (!cookieValue) return false;
  const expected = Buffer.from(state.browser);
  const actual = Buffer.from(browserBinding(cookieValue));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const AUDIENCE = 'ticketing-oauth-state';

export async function signLoginState(state: LoginState): Promise<string> {
  const { kid, key } = await currentSigningKey();
  return new SignJWT({
    redirect_uri: state.redirectUri,
    nonce: state.nonce,
    ref: state.ref,
    channel: state.channel,
    browser: state.browser,
  })
    .setProtectedHeader({ alg: ALGORITHM, kid })
    .setIssuer(config().JWT_ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(epochSeconds())
    .setExpirationTime(epochSeconds() + LOGIN_TTL_SECONDS)
    .sign(key);
}

/** The state's content, or undefined when it is missing, forged, expired or malformed. */
export async function verifyLoginState(state: string | undefined): Promise<LoginState | undefined> {
  if (!state) return undefined;
  try {
    const { payload } = await jwtVerify(state, verificationKeys(), {
      algorithms: [ALGORITHM],
      issuer: config().JWT_ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp'],
      currentDate: now(),
    });
    const { redirect_uri, nonce, ref, channel, browser } = payload;
    if (
      typeof redirect_uri !== 'string' ||
      typeof nonce !== 'string' ||
      typeof ref !== 'string' ||
      typeof browser !== 'string'
    )
      return undefined;
    if (channel !== 'normal' && channel !== 'vendor') return undefined;
    return { redirectUri: redirect_uri, nonce, ref, channel, browser };
  } catch {
    return undefined;
  }
}
