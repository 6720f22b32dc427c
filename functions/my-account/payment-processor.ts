import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { PaymentProcessorResource } from '#shared/http/contract/my-account';
import { paymentProcessor } from '#shared/use-cases/portal/catalogue';

export const handler = route('GET /my-account/payment-processor', {}, async () => single(await paymentProcessor()));

export const answer = () => SingleAnswer(PaymentProcessorResource);
