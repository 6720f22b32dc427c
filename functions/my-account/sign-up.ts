import { signUp } from '#shared/identity/use-cases/sign-up';
import { SignUpAnswer, SignUpInput } from '#shared/identity/domain/sign-up';
import { clientNetwork } from '#shared/http/client-address';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /my-account/sign-up',
  { body: SignUpInput, status: 202 },
  async ({ body, event }) => ({
    // The same 202 whether or not the address had an account (shared/identity/use-cases/sign-up.ts).
    ...single(await signUp(body, clientNetwork(event))),
    status: 202,
  }),
);

export const answer = () => SingleAnswer(SignUpAnswer);
