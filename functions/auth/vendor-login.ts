import * as z from '#shared/schema';
import { beginLogin } from '#shared/use-cases/auth/idp-login';
import { single } from '#shared/http/envelopes';
import { AuthUrl, SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

// Deprecated (successor POST /auth/login): the same login, with the vendor channel in `state`.
export const handler = route(
  'POST /auth/vendor/login',
  { body: z.strictObject({ redirect_uri: z.url().check(z.maxLength(2048)) }), response: SingleAnswer(AuthUrl) },
  async ({ body }) => single(await beginLogin(body.redirect_uri, 'vendor')),
);
