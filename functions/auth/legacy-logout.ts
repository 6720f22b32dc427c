import { requireAuthMode } from '#shared/identity/use-cases/auth-mode';
import { endAllSessions } from '#shared/identity/use-cases/end-sessions';
import { clearedAuthCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { SuccessMessage } from '#shared/identity/contract/auth';

export const handler = route('POST /auth/legacy/logout', {}, async ({ caller }) => {
  requireAuthMode('legacy');
  // Logout everywhere: every token of this account ends, not only the cookie cleared here.
  // Without a valid session (expired, revoked, none) there is nothing to end: the cookie is still cleared.
  if (caller) await endAllSessions(caller);
  return { ...single({ success: true, message: 'Signed out.' }), cookies: [clearedAuthCookie()] };
});

export const answer = () => SingleAnswer(SuccessMessage);
