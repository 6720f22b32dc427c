/**
 * The business metrics' names, apart from `services/metrics.ts` (which creates the Powertools
 * instance and reads the configuration) so that the CDK app can build alarms and the
 * dashboard on the same names without loading the runtime's configuration.
 */
export const METRICS_NAMESPACE = 'Ticketing';

export const METRIC = {
  /** A scan that admitted a ticket (simple or access package). */
  checkInAdmitted: 'CheckInAdmitted',
  /** A refused scan; dimension `reason` (the gate's refusal code). */
  checkInRefused: 'CheckInRefused',
  /** A sign-in that did not end in a session; dimension `login` (which login), the cause as metadata `reason`. */
  loginFailed: 'LoginFailed',
  /** A webhook delivery given up after its retries, or after 410 Gone (functions/jobs/). */
  webhookDeliveryDead: 'WebhookDeliveryDead',
  /** A subscription the service turned off (410 Gone, failing for the whole retry window, its administrator lost the right); metadata `reason`. */
  webhookDisabled: 'WebhookDisabled',
  /**
   * A succeeded Stripe payment that paid no order (another intent than the order's, another amount or currency, no
   * such order): refunded, never kept; metadata `reason` (PaymentMismatch). Any one is worth a look: it alarms.
   */
  paymentUnmatched: 'PaymentUnmatched',
  /** A card payment of an order disputed (Stripe's `charge.dispute.created`): staff respond before its deadline. */
  paymentDisputed: 'PaymentDisputed',
  /** A recorded refund Stripe reported failed (`refund.failed`): the buyer did not get the money back. */
  refundFailed: 'RefundFailed',
  /**
   * A paid order whose invoice the every-minute job failed to number again (shared/selling/use-cases/invoices-due.ts):
   * its first failure was already taken over, so any one is worth a look: it alarms.
   */
  invoiceStillDue: 'InvoiceStillDue',
  /** The age in seconds of the oldest webhook message not yet delivered, published by each dispatcher run. */
  webhookOldestPendingAge: 'WebhookOldestPendingAgeSeconds',
} as const;

/**
 * Which login failed: the legacy admin password login, the identity-provider callback
 * (the admin channel, or the vendor channel of POST /auth/vendor/login), the customer
 * portal's PUT /my-account.
 */
export const LOGIN_KINDS = ['legacy', 'idp', 'vendor', 'customer'] as const;
export type LoginKind = (typeof LOGIN_KINDS)[number];

/** Dimension every business metric carries beside Powertools' `service`: two stages in one account never share a series. */
export const STAGE_DIMENSION = 'stage';
