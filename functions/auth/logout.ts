import * as z from '#shared/schema';
import { idpLogout } from '#shared/identity/use-cases/idp-account';
import { endAllSessions } from '#shared/identity/use-cases/end-sessions';
import { clearedAuthCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { LogoutUrl } from '#shared/identity/contract/auth';

export const handler = route(
  'POST /auth/logout',
  {
    query: z.strictObject({
      return_to: z.optional(z.string().check(z.maxLength(2048, 'return_to must be at most 2048 characters'))),
    }),
  },
  async ({ query, caller }) => {
    const answer = idpLogout(query.return_to);
    // Logout everywhere: every token of this account ends (the provider's logout ends its own session).
    // Without a valid session (expired, revoked, none) there is nothing to end: the cookie is still cleared.
    if (caller) await endAllSessions(caller);
    return { ...single(answer), cookies: [clearedAuthCookie()] };
  },
);

export const answer = () => SingleAnswer(LogoutUrl);
