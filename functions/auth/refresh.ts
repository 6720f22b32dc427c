import { refreshAdminSession } from '#shared/identity/use-cases/admin-session';
import { sessionCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { Refreshed } from '#shared/identity/contract/auth';

export const handler = route('POST /auth/refresh', {}, async ({ caller }) => {
  // In the body too: a bearer client (no cookie jar) takes the new token from here.
  const { jwt, expiresAt } = await refreshAdminSession(caller);
  return { ...single({ refreshed: true, token: jwt, expiresAt }), cookies: [sessionCookie(jwt)] };
});

export const answer = () => SingleAnswer(Refreshed);
