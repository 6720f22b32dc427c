import { requireAuthMode } from '#shared/use-cases/auth/auth-mode';
import { clearedAuthCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('POST /auth/legacy/logout', {}, async () => {
  requireAuthMode('legacy');
  return { ...single({ success: true, message: 'Signed out.' }), cookies: [clearedAuthCookie()] };
});
