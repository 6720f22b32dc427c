// How the page pays a checkout's PaymentIntent, chosen by the page's config in one place (paymentForm):
// - deployed: Stripe.js (https://js.stripe.com/v3/, allowed by the portal's CSP, infra/front-ends.ts) takes the
//   card in its card Element and confirms with `stripe.confirmCardPayment`;
// - on `npm start` (no internet, so no Stripe.js): /config.json names the Stripe stand-in (`paymentsBaseUrl`) and
//   the page confirms against it as Stripe.js does: a form POST to /v1/payment_intents/{id}/confirm with the
//   publishable key as `key`, the client secret and a test card (pm_card_visa succeeds, pm_card_chargeDeclined not).
// Either way the order becomes paid only when Stripe's webhook says so: the page then polls the order (order.js).
import { element } from './api.js';

let config;
/** The page's local settings; a deployed front end has no /config.json (its bucket answers 403): `{}`. */
const pageConfig = () =>
  (config ??= fetch('/config.json', { credentials: 'same-origin' })
    .then((answer) => (answer.ok ? answer.json() : {}))
    .catch(() => ({})));

/**
 * Draws the payment's input into `container` and answers `{confirm}`, which confirms the payment and answers
 * `{succeeded, message}`. `payment`: the checkout's `{clientSecret, publishableKey, amount, currency}`.
 */
export async function paymentForm(payment, container) {
  const { paymentsBaseUrl } = await pageConfig();
  return paymentsBaseUrl ? standInForm(paymentsBaseUrl, payment, container) : stripeJsForm(payment, container);
}

const TEST_CARDS = [
  ['pm_card_visa', 'Visa 4242 (succeeds)'],
  ['pm_card_chargeDeclined', 'Visa 0002 (declined)'],
];

function standInForm(baseUrl, payment, container) {
  const card = element(
    'select',
    { id: 'test-card', ariaLabel: 'Test card' },
    ...TEST_CARDS.map(([value, text]) => element('option', { value, text })),
  );
  container.replaceChildren(
    element('label', { text: 'Test card (the local Stripe stand-in) ' }, card),
  );
  return {
    confirm: async () => {
      const intentId = payment.clientSecret.split('_secret_')[0];
      const answer = await fetch(new URL(`/v1/payment_intents/${encodeURIComponent(intentId)}/confirm`, baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          payment_method: card.value,
          expected_payment_method_type: 'card',
          key: payment.publishableKey,
          client_secret: payment.clientSecret,
        }),
      });
      const intent = await answer.json();
      if (intent.error) return { succeeded: false, message: intent.error.message };
      if (intent.status === 'succeeded') return { succeeded: true };
      return { succeeded: false, message: intent.last_payment_error?.message ?? `the payment is ${intent.status}` };
    },
  };
}

let stripeJs;
const loadStripeJs = () =>
  (stripeJs ??= new Promise((resolve, reject) => {
    const script = element('script', { src: 'https://js.stripe.com/v3/' });
    script.addEventListener('load', () => resolve(window.Stripe));
    script.addEventListener('error', () => reject(new Error('Stripe.js could not be loaded.')));
    document.head.append(script);
  }));

async function stripeJsForm(payment, container) {
  const stripe = (await loadStripeJs())(payment.publishableKey);
  const card = stripe.elements().create('card');
  container.replaceChildren();
  card.mount(container);
  return {
    confirm: async () => {
      const { error, paymentIntent } = await stripe.confirmCardPayment(payment.clientSecret, {
        payment_method: { card },
      });
      if (error) return { succeeded: false, message: error.message };
      return { succeeded: paymentIntent.status === 'succeeded', message: `the payment is ${paymentIntent.status}` };
    },
  };
}
