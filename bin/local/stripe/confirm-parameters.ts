import type Stripe from 'stripe';
import { invalidParameter, invalidRequest, missingParam, StripeFailure, unknownParam } from './errors.ts';
import type { Form, FormValue } from './form.ts';
import { type BillingDetails, noBillingDetails } from './objects.ts';
import { declineMessages, type TestCard, testCardByNumber, testCardByToken } from './test-cards.ts';

/**
 * What `POST /v1/payment_intents/{id}/confirm` takes: the parameters of Stripe's API (the SDK's
 * PaymentIntentConfirmParams) this stand-in honours, plus what Stripe.js adds from the browser (`key`,
 * `client_secret`, `expected_payment_method_type`, and its fraud signals `radar_options[hcaptcha_token]` and
 * `client_attribution_metadata[…]`, accepted and unused). The rest of Stripe's parameters are refused by name as not
 * honoured here (a test must not pass on a parameter the stand-in ignores); any other name as Stripe refuses it,
 * `parameter_unknown`.
 */
export const CONFIRM_PARAMETERS = [
  'payment_method',
  'payment_method_data',
  'return_url',
  'use_stripe_sdk',
  'error_on_requires_action',
  'receipt_email',
  'expected_payment_method_type',
  'key',
  'client_secret',
  'radar_options',
  'client_attribution_metadata',
] as const;

export const NOT_HONOURED_CONFIRM_PARAMETERS = [
  'allowed_payment_method_types',
  'amount_details',
  'amount_to_confirm',
  'capture_method',
  'confirmation_token',
  'excluded_payment_method_types',
  'expand',
  'hooks',
  'mandate',
  'mandate_data',
  'off_session',
  'payment_details',
  'payment_method_options',
  'setup_future_usage',
  'shipping',
] as const satisfies ReadonlyArray<keyof Stripe.PaymentIntentConfirmParams>;

export const notHonoured = (name: string) =>
  invalidParameter(`This stand-in does not honour the parameter ${name} (bin/README.md, the Stripe stand-in).`, {
    param: name,
  });

/** How the confirm should go, checked before anything changes. */
export interface ConfirmOptions {
  returnUrl: string | null;
  useStripeSdk: boolean;
  errorOnRequiresAction: boolean;
  expectedType: string | null;
  receiptEmail: string | undefined;
}

export function confirmOptions(form: Form): ConfirmOptions {
  const returnUrl = text(form, 'return_url');
  if (returnUrl !== undefined && !URL.canParse(returnUrl))
    throw invalidParameter('Not a valid URL', { code: 'url_invalid', param: 'return_url' });
  return {
    returnUrl: returnUrl ?? null,
    useStripeSdk: flag(form, 'use_stripe_sdk'),
    errorOnRequiresAction: flag(form, 'error_on_requires_action'),
    expectedType: text(form, 'expected_payment_method_type') ?? null,
    receiptEmail: text(form, 'receipt_email'),
  };
}

function text(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value !== undefined && typeof value !== 'string')
    throw invalidParameter(`Invalid string: ${name}`, { param: name });
  return value;
}

/** Stripe's booleans on the wire: `true` or `false`. */
function flag(form: Form, name: string): boolean {
  const value = form[name];
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false')
    throw invalidParameter(`Invalid boolean: ${String(value)}`, { code: 'parameter_invalid_boolean', param: name });
  return value === 'true';
}

/**
 * Stripe.js's own signals beside the card (fraud detection, where the page was): accepted and not used. The card
 * itself is `card[number|exp_month|exp_year|cvc]` from the card field, or `card[token]`.
 */
const PAYMENT_METHOD_DATA = [
  'type',
  'card',
  'billing_details',
  'allow_redisplay',
  'metadata',
  'guid',
  'muid',
  'sid',
  'payment_user_agent',
  'time_on_page',
  'referrer',
  'pasted_fields',
  'client_attribution_metadata',
];
const CARD = ['number', 'exp_month', 'exp_year', 'cvc', 'token', 'networks'];
const BILLING = ['name', 'email', 'phone', 'address', 'tax_id'];
const ADDRESS = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'];

function object(value: FormValue | undefined, param: string): Record<string, FormValue> {
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter('Invalid object', { param });
  return value;
}

function known(value: Record<string, FormValue>, names: readonly string[], param: string): void {
  for (const name of Object.keys(value)) if (!names.includes(name)) throw unknownParam(`${param}[${name}]`);
}

function field(value: Record<string, FormValue>, name: string, param: string): string | null {
  const item = value[name];
  if (item === undefined || item === '') return null;
  if (typeof item !== 'string')
    throw invalidParameter(`Invalid string: ${param}[${name}]`, { param: `${param}[${name}]` });
  return item;
}

/** `payment_method_data` as Stripe.js sends it for a card: which test card it is, and the billing details. */
export function cardData(value: FormValue): { test: TestCard; billingDetails: BillingDetails } {
  const data = object(value, 'payment_method_data');
  known(data, PAYMENT_METHOD_DATA, 'payment_method_data');
  const type = field(data, 'type', 'payment_method_data');
  if (!type) throw missingParam('payment_method_data[type]');
  if (type !== 'card')
    throw invalidRequest('This stand-in knows only the payment method type card.', {
      param: 'payment_method_data[type]',
    });
  if (data.card === undefined) throw missingParam('payment_method_data[card]');
  return {
    test: testCard(object(data.card, 'payment_method_data[card]')),
    billingDetails: billingDetails(data.billing_details),
  };
}

function testCard(card: Record<string, FormValue>): TestCard {
  const param = 'payment_method_data[card]';
  known(card, CARD, param);
  const token = field(card, 'token', param);
  if (token) {
    const test = testCardByToken(token);
    if (!test) throw invalidRequest(`No such token: '${token}'`, { code: 'token_not_found', param: `${param}[token]` });
    return test;
  }
  const number = field(card, 'number', param);
  if (!number) throw missingParam(`${param}[number]`);
  for (const name of ['exp_month', 'exp_year']) if (!field(card, name, param)) throw missingParam(`${param}[${name}]`);
  if (!luhn(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', `${param}[number]`);
  const test = testCardByNumber(number);
  if (!test)
    throw cardError('card_declined', declineMessages.test_mode_live_card!, undefined, {
      decline_code: 'test_mode_live_card',
    });
  return test;
}

function billingDetails(value: FormValue | undefined): BillingDetails {
  if (value === undefined || value === '') return noBillingDetails();
  const param = 'payment_method_data[billing_details]';
  const billing = object(value, param);
  known(billing, BILLING, param);
  const address = billing.address === undefined ? undefined : object(billing.address, `${param}[address]`);
  if (address) known(address, ADDRESS, `${param}[address]`);
  const part = (name: string) => (address ? field(address, name, `${param}[address]`) : null);
  return {
    address: address
      ? {
          city: part('city'),
          country: part('country'),
          line1: part('line1'),
          line2: part('line2'),
          postal_code: part('postal_code'),
          state: part('state'),
        }
      : null,
    email: field(billing, 'email', param),
    name: field(billing, 'name', param),
    phone: field(billing, 'phone', param),
    tax_id: field(billing, 'tax_id', param),
  };
}

/** The card number's check digit, as Stripe checks it before anything else. */
function luhn(number: string): boolean {
  const digits = number.replace(/\s/g, '');
  if (!/^\d{12,19}$/.test(digits)) return false;
  const sum = [...digits].reverse().reduce((total, digit, i) => {
    const value = Number(digit) * (i % 2 ? 2 : 1);
    return total + (value > 9 ? value - 9 : value);
  }, 0);
  return sum % 10 === 0;
}

const cardError = (code: string, message: string, param?: string, extra: Record<string, unknown> = {}) =>
  new StripeFailure(402, { type: 'card_error', code, message, ...(param ? { param } : {}), ...extra });
