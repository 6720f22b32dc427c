import * as z from '#shared/schema';
import { beginLogin } from '#shared/identity/use-cases/idp-login';
import { loginCookie } from '#shared/http/cookies';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { AuthUrl } from '#shared/identity/contract/auth';

export const handler = route(
  'POST /auth/login',
  { body: z.strictObject({ redirect_uri: z.url().check(z.maxLength(2048)) }) },
  async ({ body }) => {
    const { auth_url, browserSecret } = await beginLogin(body.redirect_uri, 'normal');
    // Binds the login to this browser: the callback checks it against the state (login CSRF).
    return { ...single({ auth_url }), cookies: [loginCookie(browserSecret)] };
  },
);

export const answer = () => SingleAnswer(AuthUrl);
