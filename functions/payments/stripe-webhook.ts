import { header } from '#shared/http/request';
import { route } from '#shared/http/route';
import { StripeEventBody, StripeWebhookReceipt } from '#shared/selling/contract/payments';
import { receiveStripeEvent } from '#shared/selling/use-cases/stripe-events';

export const handler = route(
  'POST /payments/stripe/webhook',
  { body: StripeEventBody, raw: true },
  async ({ event }) => {
    // route() `raw`: the body's text, checked (JSON media type, size, UTF-8) and unparsed.
    await receiveStripeEvent(typeof event.body === 'string' ? event.body : '', header(event, 'stripe-signature'));
    return { body: { received: true } };
  },
);

export const answer = () => StripeWebhookReceipt;
