import { SignJWT } from 'jose';
import { epochSeconds } from '../../clock.ts';
import { config } from '../../config.ts';
import { ALGORITHM } from '../../public-keys.ts';
import { currentSigningKey } from './signing-key.ts';
import { AUDIENCES, TOKEN_TTL_SECONDS, type Principal } from '../../auth/tokens.ts';

/**
 * Issues the service's own tokens (tokens.ts verifies them): signed with the private half
 * of the first key of JWT_PUBLIC_KEYS, fetched from Secrets Manager (signing-key.ts). Only
 * the rows with `uses.signingKey` import this module, so only their bundles carry that client.
 */
export interface IssuedToken {
  token: string;
  /** Epoch seconds: the token's `exp`, given to bearer clients so they refresh in time. */
  expiresAt: number;
}

export async function issueToken(principal: Principal): Promise<string> {
  return (await issueSessionToken(principal)).token;
}

/** A token and its expiry. */
export async function issueSessionToken(principal: Principal): Promise<IssuedToken> {
  const claims =
    principal.kind === 'admin'
      ? {
          login: principal.login,
          permissions: principal.permissions,
          vendor_user: principal.vendorUser,
          ...(principal.eventScope ? { events: principal.eventScope } : {}),
        }
      : { email: principal.email };
  const { kid, key } = await currentSigningKey();
  // One reading of the clock: `exp - iat` is the TTL exactly, even across a second's turn.
  const issuedAt = epochSeconds();
  const expiresAt = issuedAt + TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ ...claims, auth_time: principal.authTime, sv: principal.sessionVersion ?? 0 })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid })
    .setIssuer(config().JWT_ISSUER)
    .setAudience(AUDIENCES[principal.kind])
    .setSubject(String(principal.id))
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt };
}
