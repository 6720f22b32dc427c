import { createCustomer } from '#shared/identity/use-cases/create-customer';
import { NewCustomerInput } from '#shared/portal/contract/my-account';
import { CustomerResource } from '#shared/portal/contract/my-account';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route('POST /my-account', { body: NewCustomerInput, status: 201 }, async ({ body, caller }) => ({
  ...single(await createCustomer(body, { kind: 'admin', id: caller.id })),
  status: 201,
}));

export const answer = () => SingleAnswer(CustomerResource);
