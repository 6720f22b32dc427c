import * as z from '#shared/schema';
import { legacyLogin } from '#shared/identity/use-cases/legacy-login';
import { clientNetwork } from '#shared/http/client-address';
import { sessionCookie } from '#shared/http/cookies';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { LegacySignIn } from '#shared/identity/contract/auth';

export const handler = route(
  'POST /auth/legacy/login',
  {
    body: z.strictObject({
      login: z.string().check(z.minLength(1), z.maxLength(254)),
      password: z.string().check(z.minLength(1), z.maxLength(1024)),
    }),
  },
  async ({ body, event }) => {
    const { jwt, expiresAt, user } = await legacyLogin(body.login, body.password, clientNetwork(event));
    return { body: { count: 1, data: { success: true, jwt, expiresAt, user } }, cookies: [sessionCookie(jwt)] };
  },
);

export const answer = () => SingleAnswer(LegacySignIn);
