import { currentCustomer } from '#shared/identity/use-cases/account';
import { CustomerResource } from '#shared/portal/contract/my-account';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';

export const handler = route('GET /my-account', {}, async ({ caller }) => single(await currentCustomer(caller)));

export const answer = () => SingleAnswer(CustomerResource);
