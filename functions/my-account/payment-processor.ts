import * as z from '#shared/schema';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { wholeNumber } from '#shared/request-fields';
import { route } from '#shared/http/route';
import { PaymentProcessorResource } from '#shared/portal/contract/my-account';
import { paymentProcessor } from '#shared/portal/use-cases/catalogue';

export const handler = route(
  'GET /my-account/payment-processor',
  { query: z.strictObject({ eventId: z.optional(wholeNumber('eventId', { positive: true })) }) },
  async ({ query, caller }) => single(await paymentProcessor(caller.id, query.eventId)),
);

export const answer = () => SingleAnswer(PaymentProcessorResource);
