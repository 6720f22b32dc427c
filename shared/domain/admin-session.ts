import { issueToken, TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { epochSeconds } from '../clock.ts';
import type { Administrator } from '../data/administrators.ts';
import { authCookie } from '../http/cookies.ts';

/** A fresh session for an administrator: the token and the cookie that carries it. */
export async function startAdminSession(admin: Administrator): Promise<{ jwt: string; cookie: string }> {
  const jwt = await issueToken({
    kind: 'admin',
    id: admin.id,
    login: admin.login,
    permissions: admin.permissions,
    vendorUser: admin.vendorUser === 1,
    authTime: epochSeconds(),
  });
  return { jwt, cookie: authCookie(jwt, TOKEN_TTL_SECONDS) };
}
