import type { CardDetails } from './objects.ts';

/**
 * The test cards Stripe documents (https://docs.stripe.com/testing), as far as this stand-in knows them, reachable
 * the three ways Stripe takes them: a test PaymentMethod id (`payment_method=pm_card_visa`), a test token
 * (`payment_method_data[card][token]=tok_visa`) or the card's number typed into Stripe.js's card field
 * (`payment_method_data[card][number]=4242424242424242`). What each does when confirmed:
 * - `succeeds`: the payment succeeds;
 * - `decline`: a `card_error` with Stripe's decline code;
 * - `authentication`: 3-D Secure: the PaymentIntent `requires_action` until the buyer completes or fails the
 *   test authentication (server.ts, `/3d_secure_2_test/…`).
 * And what follows a payment that succeeded (`followUp`, follow-ups.ts): `dispute`, the cardholder disputes it;
 * `refundFails`, a refund is made `succeeded`, then fails (a closed card).
 */
export type CardOutcome = { kind: 'succeeds' } | { kind: 'decline'; code: string } | { kind: 'authentication' };

export interface TestCard {
  name: string;
  number: string;
  card: CardDetails;
  outcome: CardOutcome;
  followUp?: 'dispute' | 'refundFails';
}

const card = (brand: string, last4: string): CardDetails => ({
  brand,
  last4,
  country: 'US',
  funding: 'credit',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
});

const TEST_CARDS: TestCard[] = [
  { name: 'visa', number: '4242424242424242', card: card('visa', '4242'), outcome: { kind: 'succeeds' } },
  { name: 'mastercard', number: '5555555555554444', card: card('mastercard', '4444'), outcome: { kind: 'succeeds' } },
  {
    name: 'createDispute',
    number: '4000000000000259',
    card: card('visa', '0259'),
    outcome: { kind: 'succeeds' },
    followUp: 'dispute',
  },
  {
    name: 'refundFail',
    number: '4000000000005126',
    card: card('visa', '5126'),
    outcome: { kind: 'succeeds' },
    followUp: 'refundFails',
  },
  {
    name: 'chargeDeclined',
    number: '4000000000000002',
    card: card('visa', '0002'),
    outcome: { kind: 'decline', code: 'generic_decline' },
  },
  {
    name: 'chargeDeclinedInsufficientFunds',
    number: '4000000000009995',
    card: card('visa', '9995'),
    outcome: { kind: 'decline', code: 'insufficient_funds' },
  },
  {
    name: 'threeDSecure2Required',
    number: '4000000000003220',
    card: card('visa', '3220'),
    outcome: { kind: 'authentication' },
  },
  {
    name: 'authenticationRequired',
    number: '4000002760003184',
    card: card('visa', '3184'),
    outcome: { kind: 'authentication' },
  },
];

/** `pm_card_<name>`, as `payment_method`. */
export const testCardByPaymentMethod = (id: string) => TEST_CARDS.find((test) => `pm_card_${test.name}` === id);

/** `tok_<name>`, as `payment_method_data[card][token]`. */
export const testCardByToken = (token: string) => TEST_CARDS.find((test) => `tok_${test.name}` === token);

/** The number typed into the card field (spaces allowed, as Stripe.js strips them). */
export const testCardByNumber = (number: string) =>
  TEST_CARDS.find((test) => test.number === number.replace(/\s/g, ''));

export const declineMessages: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  test_mode_live_card:
    'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};
