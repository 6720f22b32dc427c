import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * The objects the stand-in answers and sends, each built whole here and typed as the official SDK declares it (the
 * SDK is generated from Stripe's OpenAPI document): a field Stripe never sends, or a required one left out, fails
 * the typecheck. Fields the stand-in has no use for are there as Stripe sends them when unused (null, false).
 * test/integration/stripe-stand-in-shapes.test.ts checks the same at run time against the SDK's declarations.
 */
export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** How a state change is handed on: an event of `type` with the object as it is now, under its PaymentIntent. */
export type Emit = (type: Stripe.Event.Type, object: { id: string; object: string }, paymentIntent: string) => void;

/** Object.assign that accepts only the target's own fields. */
export const update = <T extends object>(target: T, changes: Partial<T>): T => Object.assign(target, changes);

/** Only the fields a caller may set; everything else starts as Stripe starts it. */
export interface NewPaymentIntent {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  automaticPaymentMethods: Stripe.PaymentIntent.AutomaticPaymentMethods | null;
  /** As asked (`allowed_payment_method_types`), else null. */
  allowedPaymentMethodTypes: string[] | null;
  paymentMethodTypes: string[];
  description: string | null;
  receiptEmail: string | null;
  created: number;
}

export function paymentIntentObject(fields: NewPaymentIntent): Stripe.PaymentIntent {
  const id = stripeId('pi');
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types:
      fields.allowedPaymentMethodTypes as Stripe.PaymentIntent['allowed_payment_method_types'],
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: fields.automaticPaymentMethods,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`,
    confirmation_method: 'automatic',
    created: fields.created,
    currency: fields.currency,
    customer: null,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: fields.paymentMethodTypes,
    payment_record: null,
    processing: null,
    receipt_email: fields.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_group: null,
  };
}

/** What the stand-in knows of a test card (https://docs.stripe.com/testing). */
export interface CardDetails {
  brand: string;
  last4: string;
  country: string;
  funding: 'credit' | 'debit';
  expMonth: number;
  expYear: number;
}

export type BillingDetails = Stripe.PaymentMethod.BillingDetails;

export const noBillingDetails = (): BillingDetails => ({
  address: null,
  email: null,
  name: null,
  phone: null,
  tax_id: null,
});

/** A card PaymentMethod, as Stripe makes one from a test card for each confirm. */
export function cardPaymentMethodObject(
  card: CardDetails,
  billingDetails: BillingDetails,
  created: number,
): Stripe.PaymentMethod {
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: billingDetails,
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: card.country,
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

/** The one charge of a PaymentIntent paid with a card PaymentMethod. */
export function chargeObject(
  intent: Stripe.PaymentIntent,
  method: Stripe.PaymentMethod,
  created: number,
): Stripe.Charge {
  return {
    id: stripeId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: stripeId('txn'),
    billing_details: method.billing_details,
    calculated_statement_descriptor: null,
    captured: true,
    created,
    currency: intent.currency,
    customer: null,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: null,
    paid: true,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: null,
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(
  charge: Stripe.Charge,
  fields: { amount: number; metadata: Record<string, string>; reason: Stripe.Refund.Reason | null; created: number },
): Stripe.Refund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: fields.amount,
    balance_transaction: stripeId('txn'),
    charge: charge.id,
    created: fields.created,
    currency: charge.currency,
    customer: null,
    customer_account: null,
    metadata: fields.metadata,
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason: fields.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

/** Stripe's seven days to answer a dispute with evidence. */
const EVIDENCE_SECONDS = 7 * 24 * 60 * 60;

/** The dispute the cardholder's bank opens on a charge: the amount taken back, `needs_response`, no evidence yet. */
export function disputeObject(charge: Stripe.Charge, created: number): Stripe.Dispute {
  return {
    id: stripeId('dp'),
    object: 'dispute',
    amount: charge.amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: noEvidence(),
    evidence_details: {
      due_by: created + EVIDENCE_SECONDS,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: 'fraudulent',
    status: 'needs_response',
  };
}

/** A dispute's evidence before any is submitted: every field null (the SDK's `Dispute.Evidence`). */
const noEvidence = (): Stripe.Dispute.Evidence => {
  const fields = `access_activity_log billing_address cancellation_policy cancellation_policy_disclosure
    cancellation_rebuttal customer_communication customer_email_address customer_name customer_purchase_ip
    customer_signature duplicate_charge_documentation duplicate_charge_explanation duplicate_charge_id
    product_description receipt refund_policy refund_policy_disclosure refund_refusal_explanation service_date
    service_documentation shipping_address shipping_carrier shipping_date shipping_documentation
    shipping_tracking_number uncategorized_file uncategorized_text`.split(/\s+/);
  const empty = Object.fromEntries(fields.map((field) => [field, null]));
  return { ...(empty as Omit<Stripe.Dispute.Evidence, 'enhanced_evidence'>), enhanced_evidence: {} };
};

/** An Event carries a copy of the object as it was when it happened. */
export function eventObject(
  type: Stripe.Event.Type,
  object: { id: string; object: string },
  request: { id: string | null; idempotencyKey: string | null },
  fields: { apiVersion: string; created: number },
): Stripe.EventBase {
  return {
    id: stripeId('evt'),
    object: 'event',
    api_version: fields.apiVersion,
    created: fields.created,
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: request.id, idempotency_key: request.idempotencyKey },
    type,
  };
}
