import * as z from '#shared/schema';
import { completeLogin } from '#shared/identity/use-cases/idp-login';
import { clearedLoginCookie, LOGIN_COOKIE, readCookie, sessionCookie } from '#shared/http/cookies';
import { route } from '#shared/http/route';

// Loose on purpose: whatever the provider (or a user) puts in the query, the answer is a redirect, never a 400.
// A value that is not a string of at most MAX_PARAM characters is taken as absent (the login fails, by redirect).
const MAX_PARAM = 2048;
const Param = z.catch(z.optional(z.string().check(z.maxLength(MAX_PARAM))), undefined);

export const handler = route(
  'GET /auth/callback',
  { query: z.object({ code: Param, state: Param, error: Param }), status: 302 },
  async ({ query, event }) => {
    const { location, jwt } = await completeLogin(query, readCookie(event.cookies, LOGIN_COOKIE));
    // The login cookie serves one callback, whatever its outcome.
    const cookies = [clearedLoginCookie(), ...(jwt ? [sessionCookie(jwt)] : [])];
    return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' }, cookies };
  },
);
