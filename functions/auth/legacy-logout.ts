import { requireAuthMode } from '#shared/use-cases/auth/auth-mode';
import { clearedAuthCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { SingleAnswer, SuccessMessage } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route('POST /auth/legacy/logout', { response: SingleAnswer(SuccessMessage) }, async () => {
  requireAuthMode('legacy');
  return { ...single({ success: true, message: 'Signed out.' }), cookies: [clearedAuthCookie()] };
});
