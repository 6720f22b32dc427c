import { checkChargeAmount } from './currencies.ts';
import { invalidRequest, missingParam } from './errors.ts';
import { type Form, metadata, onlyKnown, positiveInteger, text } from './form.ts';
import type { NewPaymentIntent } from './objects.ts';

/** The parameters of `POST /v1/payment_intents`, checked as Stripe checks them, as the fields of a new PaymentIntent. */
export function newPaymentIntent(form: Form, created: number): NewPaymentIntent {
  onlyKnown(form, [
    'amount',
    'currency',
    'metadata',
    'automatic_payment_methods',
    'allowed_payment_method_types',
    'payment_method_types',
    'receipt_email',
    'description',
  ]);
  const amount = positiveInteger(form, 'amount');
  const currency = text(form, 'currency')?.toLowerCase();
  if (!currency) throw missingParam('currency');
  if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}.`, { param: 'currency' });
  checkChargeAmount(amount, currency);
  if (form.automatic_payment_methods !== undefined && form.payment_method_types !== undefined)
    throw invalidRequest(
      'You may only specify one of these parameters: automatic_payment_methods, payment_method_types.',
    );
  // `allowed_payment_method_types` is the pinned API version's name for the older `payment_method_types`.
  if (form.allowed_payment_method_types !== undefined && form.payment_method_types !== undefined)
    throw invalidRequest(
      'You may only specify one of these parameters: allowed_payment_method_types, payment_method_types.',
    );
  const automatic = form.automatic_payment_methods as Record<string, string> | undefined;
  const allowed = form.allowed_payment_method_types ?? form.payment_method_types;
  const types = allowed === undefined ? ['card'] : [allowed].flat();
  if (types.some((type) => type !== 'card'))
    throw invalidRequest('This stand-in knows only the payment method type card.', {
      param: form.allowed_payment_method_types === undefined ? 'payment_method_types' : 'allowed_payment_method_types',
    });
  return {
    amount,
    allowedPaymentMethodTypes: form.allowed_payment_method_types === undefined ? null : (types as string[]),
    currency,
    metadata: metadata(form.metadata),
    automaticPaymentMethods: automatic
      ? {
          enabled: automatic.enabled === 'true',
          allow_redirects: (automatic.allow_redirects ?? 'always') as 'always' | 'never',
        }
      : null,
    paymentMethodTypes: types as string[],
    description: text(form, 'description') ?? null,
    receiptEmail: text(form, 'receipt_email') ?? null,
    created,
  };
}
