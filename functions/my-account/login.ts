import * as z from '#shared/schema';
import { loginCustomer } from '#shared/identity/use-cases/customer-login';
import { CustomerSignIn } from '#shared/portal/contract/my-account';
import { clientNetwork } from '#shared/http/client-address';
import { sessionCookie } from '#shared/http/cookies';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const handler = route(
  'PUT /my-account',
  {
    body: z.strictObject({ login: text(254), password: text(256), emailVerificationToken: z.optional(text(128)) }),
  },
  async ({ body, event }) => {
    const { token, expiresIn, expiresAt, customer } = await loginCustomer({ ...body, client: clientNetwork(event) });
    return {
      body: { count: 1, data: { token, expiresIn, expiresAt, tokenType: 'Bearer', customer } },
      cookies: [sessionCookie(token)],
    };
  },
);

export const answer = () => SingleAnswer(CustomerSignIn);
