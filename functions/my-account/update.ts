import { updateAccount } from '#shared/identity/use-cases/update-account';
import { AccountUpdate } from '#shared/portal/contract/my-account';
import { CustomerResource } from '#shared/portal/contract/my-account';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { clientNetwork } from '#shared/http/client-address';
import { route } from '#shared/http/route';

export const handler = route('PATCH /my-account', { body: AccountUpdate }, async ({ body, caller, event }) =>
  single(await updateAccount(caller, body, clientNetwork(event))),
);

export const answer = () => SingleAnswer(CustomerResource);
