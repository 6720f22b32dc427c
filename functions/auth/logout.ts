import * as z from '#shared/schema';
import { idpLogout } from '#shared/use-cases/auth/idp-account';
import { clearedAuthCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { LogoutUrl, SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /auth/logout',
  { query: z.strictObject({ return_to: z.optional(z.string()) }), response: SingleAnswer(LogoutUrl) },
  async ({ query }) => ({ ...single(idpLogout(query.return_to)), cookies: [clearedAuthCookie()] }),
);
