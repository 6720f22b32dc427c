import { loginCustomer } from '#shared/identity/use-cases/customer-login';
import { CustomerLoginBody, CustomerSignIn } from '#shared/portal/contract/my-account';
import { clientNetwork } from '#shared/http/client-address';
import { sessionCookie } from '#shared/http/cookies';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route('PUT /my-account', { body: CustomerLoginBody }, async ({ body, event }) => {
  const { token, expiresIn, expiresAt, customer } = await loginCustomer({ ...body, client: clientNetwork(event) });
  return {
    body: { count: 1, data: { token, expiresIn, expiresAt, tokenType: 'Bearer', customer } },
    cookies: [sessionCookie(token)],
  };
});

export const answer = () => SingleAnswer(CustomerSignIn);
